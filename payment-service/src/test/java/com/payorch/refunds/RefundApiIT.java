package com.payorch.refunds;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.testsupport.ApiTest;
import com.payorch.testsupport.OwnSchema;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Refunds over HTTP (issue #10): the sandbox settles them after `webhook-delay`, the reconciler applies the outcome;
 * the over-refund invariant, idempotency, per-merchant scoping, the list, the booking's cancellation and the
 * automatic refund of an orphaned charge. Its own schema keeps other contexts' reconcilers off its refunds.
 */
@TestPropertySource(properties = {
        "payments.gateway.sandbox.webhook-delay=PT0.2S",
        "payments.recovery.interval=PT0.2S",
        "payments.recovery.refund-pending-after=PT0.2S"})
@OwnSchema("refund_tests")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class RefundApiIT extends ApiTest {

    private static final JsonMapper JSON = new JsonMapper();
    private static final Duration WAIT = Duration.ofSeconds(30);

    /** A pm_card_ok (or other token) payment of JPY 12000, COMPLETED by its processing+succeeded webhooks. */
    private String completedPayment(String bookingId, String token) {
        String paymentId = createPayment(bookingId, token);
        sendWebhook(unique("msg"), webhookBody("payment.succeeded", paymentId, 12000, "JPY")).expectStatus().isOk();
        assertThat(statusOf(paymentId)).isEqualTo("COMPLETED");
        return paymentId;
    }

    private WebTestClient.ResponseSpec refund(String apiKey, String paymentId, String key, String body) {
        WebTestClient.RequestBodySpec spec = client.post().uri("/v1/payments/" + paymentId + "/refunds")
                .header("Authorization", "Bearer " + apiKey)
                .header("Idempotency-Key", key)
                .header("Content-Type", "application/json");
        return (body == null ? spec : spec.bodyValue(body)).exchange();
    }

    private JsonNode json(WebTestClient.ResponseSpec response, int status) {
        byte[] body = response.expectStatus().isEqualTo(status).expectBody().returnResult().getResponseBody();
        return JSON.readTree(body);
    }

    private JsonNode get(String uri) {
        return json(client.get().uri(uri).header("Authorization", "Bearer " + DEMO_KEY).exchange(), 200);
    }

    private String refundStatus(String refundId) {
        return get("/v1/refunds/" + refundId).path("status").asText();
    }

    @Test
    void aPartialThenAFullRefundSucceedAndCancelTheBookingOnce() {
        String booking = unique("bk");
        String paymentId = completedPayment(booking, "pm_card_ok");

        String key = unique("rk");
        WebTestClient.ResponseSpec created = refund(DEMO_KEY, paymentId, key,
                "{\"amount\": 5000, \"reason\": \"requested_by_customer\"}");
        byte[] firstBody = created.expectStatus().isCreated()
                .expectHeader().valueMatches("Location", "/v1/refunds/re_[A-Za-z0-9]{24}")
                .expectBody().returnResult().getResponseBody();
        JsonNode first = JSON.readTree(firstBody);
        assertThat(first.path("id").asText()).startsWith("re_");
        assertThat(first.path("paymentId").asText()).isEqualTo(paymentId);
        assertThat(first.path("amount").asLong()).isEqualTo(5000);
        assertThat(first.path("currency").asText()).isEqualTo("JPY");
        assertThat(first.path("status").asText()).isEqualTo("PENDING");
        assertThat(first.path("reason").asText()).isEqualTo("requested_by_customer");
        assertThat(first.path("failureReason").isNull()).isTrue();
        assertThat(first.path("connector").asText()).isEqualTo("sandbox");
        assertThat(first.path("connectorReference").asText()).startsWith("rf_");
        assertThat(first.path("version").asLong()).isEqualTo(1);
        String refundId = first.path("id").asText();

        // the same key and body: the same answer, replayed
        refund(DEMO_KEY, paymentId, key, "{\"amount\": 5000, \"reason\": \"requested_by_customer\"}")
                .expectStatus().isCreated().expectHeader().valueEquals("Idempotent-Replayed", "true")
                .expectBody().consumeWith(result -> assertThat(result.getResponseBody()).isEqualTo(firstBody));
        // the same key, another body: 422
        refund(DEMO_KEY, paymentId, key, "{\"amount\": 4000}").expectStatus().isEqualTo(422)
                .expectBody().jsonPath("$.code").isEqualTo("idempotency_key_reused");

        Awaitility.await().atMost(WAIT).until(() -> "SUCCEEDED".equals(refundStatus(refundId)));
        JsonNode settled = get("/v1/refunds/" + refundId);
        assertThat(settled.path("version").asLong()).isEqualTo(2);
        assertThat(get("/v1/payments/" + paymentId).path("amountRefunded").asLong()).isEqualTo(5000);
        assertThat(get("/v1/bookings/" + booking).path("status").asText()).isEqualTo("ACTIVE");

        // no amount: everything still refundable
        JsonNode rest = json(refund(DEMO_KEY, paymentId, unique("rk"), null), 201);
        assertThat(rest.path("amount").asLong()).isEqualTo(7000);
        assertThat(rest.path("reason").isNull()).isTrue();
        Awaitility.await().atMost(WAIT).until(() -> "SUCCEEDED".equals(refundStatus(rest.path("id").asText())));

        assertThat(get("/v1/payments/" + paymentId).path("amountRefunded").asLong()).isEqualTo(12000);
        JsonNode cancelled = get("/v1/bookings/" + booking);
        assertThat(cancelled.path("status").asText()).isEqualTo("CANCELLED");
        assertThat(cancelled.path("cancelledAt").asText()).matches("\\d{4}-\\d\\d-\\d\\dT.*Z");
        assertThat(count("select count(*) from events where booking_id = $1 and type = 'booking.cancelled'", booking))
                .isEqualTo(1);
        assertThat(count("select count(*) from events where payment_id = $1 and type = 'refund.created'"
                + " and data->>'reason' = 'requested_by_customer' and (data->>'amount')::bigint = 5000", paymentId))
                .isEqualTo(1);
        assertThat(count("select count(*) from events where payment_id = $1 and type = 'refund.succeeded'", paymentId))
                .isEqualTo(2);

        // nothing left to refund; a cancelled booking takes no new payment
        json(refund(DEMO_KEY, paymentId, unique("rk"), "{\"amount\": 1}"), 409);
        refund(DEMO_KEY, paymentId, unique("rk"), null).expectStatus().isEqualTo(409).expectBody()
                .jsonPath("$.code").isEqualTo("amount_exceeds_refundable")
                .jsonPath("$.detail").value(detail -> assertThat((String) detail).contains("0 JPY is refundable"));
        postPayment(DEMO_KEY, unique("key"), paymentBody(booking)).exchange().expectStatus().isEqualTo(409)
                .expectBody().jsonPath("$.code").isEqualTo("booking_cancelled");
    }

    @Test
    void moreThanTheRefundableAmountIs409NamingWhatIsRefundableAndWritesNothing() {
        String paymentId = completedPayment(unique("bk"), "pm_card_ok");
        String key = unique("rk");

        refund(DEMO_KEY, paymentId, key, "{\"amount\": 12001}").expectStatus().isEqualTo(409).expectBody()
                .jsonPath("$.code").isEqualTo("amount_exceeds_refundable")
                .jsonPath("$.detail").value(detail -> assertThat((String) detail).contains("12000 JPY is refundable"));
        assertThat(count("select count(*) from refunds where payment_id = $1", paymentId)).isZero();
        assertThat(count("select amount_reserved from payments where id = $1", paymentId)).isZero();
        // the refused request did not consume its key
        json(refund(DEMO_KEY, paymentId, key, "{\"amount\": 12000}"), 201);
    }

    @Test
    void aPaymentThatIsNotCompletedIsNotRefundable() {
        String paymentId = createPayment(unique("bk"), "pm_card_ok");
        assertThat(statusOf(paymentId)).isEqualTo("PROCESSING");

        refund(DEMO_KEY, paymentId, unique("rk"), "{}").expectStatus().isEqualTo(409).expectBody()
                .jsonPath("$.code").isEqualTo("payment_not_refundable");
        assertThat(count("select count(*) from refunds where payment_id = $1", paymentId)).isZero();
    }

    @Test
    void aDeclinedRefundFailsWithRefundDeclinedAndGivesItsAmountBack() {
        String booking = unique("bk");
        String paymentId = completedPayment(booking, "pm_card_refund_fails");

        JsonNode refund = json(refund(DEMO_KEY, paymentId, unique("rk"), null), 201);
        assertThat(refund.path("amount").asLong()).isEqualTo(12000);
        String refundId = refund.path("id").asText();
        Awaitility.await().atMost(WAIT).until(() -> "FAILED".equals(refundStatus(refundId)));

        assertThat(get("/v1/refunds/" + refundId).path("failureReason").asText()).isEqualTo("refund_declined");
        assertThat(get("/v1/payments/" + paymentId).path("amountRefunded").asLong()).isZero();
        assertThat(get("/v1/bookings/" + booking).path("status").asText()).isEqualTo("ACTIVE");
        assertThat(count("select count(*) from events where payment_id = $1 and type = 'refund.failed'", paymentId))
                .isEqualTo(1);
        // the failed refund's amount is refundable again
        json(refund(DEMO_KEY, paymentId, unique("rk"), "{\"amount\": 12000}"), 201);
    }

    @Test
    void refundsBelongToTheirMerchant() {
        String paymentId = completedPayment(unique("bk"), "pm_card_ok");
        String refundId = json(refund(DEMO_KEY, paymentId, unique("rk"), "{\"amount\": 100}"), 201)
                .path("id").asText();

        client.get().uri("/v1/refunds/" + refundId).header("Authorization", "Bearer " + OTHER_KEY).exchange()
                .expectStatus().isNotFound().expectBody().jsonPath("$.code").isEqualTo("not_found");
        client.get().uri("/v1/payments/" + paymentId + "/refunds").header("Authorization", "Bearer " + OTHER_KEY)
                .exchange().expectStatus().isNotFound();
        refund(OTHER_KEY, paymentId, unique("rk"), "{\"amount\": 100}").expectStatus().isNotFound();
        client.get().uri("/v1/refunds/re_unknown").header("Authorization", "Bearer " + DEMO_KEY).exchange()
                .expectStatus().isNotFound();
        assertThat(count("select count(*) from refunds where payment_id = $1", paymentId)).isEqualTo(1);
    }

    @Test
    void theListIsNewestFirstInKeysetPages() {
        String paymentId = completedPayment(unique("bk"), "pm_card_ok");
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ids.add(json(refund(DEMO_KEY, paymentId, unique("rk"), "{\"amount\": 1000}"), 201).path("id").asText());
        }

        JsonNode page1 = get("/v1/payments/" + paymentId + "/refunds?limit=2");
        assertThat(page1.path("has_more").asBoolean()).isTrue();
        assertThat(page1.path("data").valueStream().map(r -> r.path("id").asText()).toList())
                .containsExactly(ids.get(2), ids.get(1));
        JsonNode page2 = get("/v1/payments/" + paymentId + "/refunds?limit=2&starting_after=" + ids.get(1));
        assertThat(page2.path("has_more").asBoolean()).isFalse();
        assertThat(page2.path("data").valueStream().map(r -> r.path("id").asText()).toList())
                .containsExactly(ids.get(0));
        client.get().uri("/v1/payments/" + paymentId + "/refunds?starting_after=re_nope")
                .header("Authorization", "Bearer " + DEMO_KEY).exchange()
                .expectStatus().isBadRequest().expectBody().jsonPath("$.code").isEqualTo("invalid_request");
    }

    @Test
    void fiftyConcurrentRefundsNeverExceedTheAmount() throws Exception {
        String paymentId = completedPayment(unique("bk"), "pm_card_ok");
        HttpClient http = HttpClient.newHttpClient();
        List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
        List<Long> amounts = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            long amount = 300 + 37L * i; // 300..2113: together far more than 12000
            amounts.add(amount);
            answers.add(http.sendAsync(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/v1/payments/"
                                    + paymentId + "/refunds"))
                            .header("Authorization", "Bearer " + DEMO_KEY)
                            .header("Idempotency-Key", unique("rk"))
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString("{\"amount\": " + amount + "}"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString()));
        }
        long accepted = 0;
        int created = 0;
        for (int i = 0; i < answers.size(); i++) {
            HttpResponse<String> answer = answers.get(i).get();
            assertThat(answer.statusCode()).as(answer.body()).isIn(201, 409);
            if (answer.statusCode() == 201) {
                accepted += amounts.get(i);
                created++;
            } else {
                assertThat(JSON.readTree(answer.body()).path("code").asText()).isEqualTo("amount_exceeds_refundable");
            }
        }
        assertThat(accepted).isLessThanOrEqualTo(12000).isPositive();
        assertThat(created).isLessThan(50);
        assertThat(count("select coalesce(sum(amount), 0) from refunds where payment_id = $1", paymentId))
                .isEqualTo(accepted);
        assertThat(count("select amount_reserved from payments where id = $1", paymentId)).isEqualTo(accepted);
    }

    @Test
    void anOrphanedChargeIsRefundedOnceAndDoesNotCountAgainstThePayment() {
        String paymentId = createPayment(unique("bk"), "pm_card_ok");
        String attempt1 = latestChargeOf(paymentId);
        // attempt 1 reported declined (it was not), retried; then its success arrives: an orphaned charge
        sendWebhook(unique("msg"), webhookBody("payment.failed", paymentId, attempt1, 12000, "JPY"))
                .expectStatus().isOk();
        client.post().uri("/v1/payments/" + paymentId + "/retry").header("Authorization", "Bearer " + DEMO_KEY)
                .header("Idempotency-Key", unique("retry")).exchange().expectStatus().isOk();
        for (int i = 0; i < 3; i++) {
            sendWebhook(unique("msg"), webhookBody("payment.succeeded", paymentId, attempt1, 12000, "JPY"))
                    .expectStatus().isOk();
        }

        Awaitility.await().atMost(WAIT).until(() -> count("select count(*) from refunds where payment_id = $1"
                + " and status = 'SUCCEEDED'", paymentId) == 1);
        assertThat(count("select count(*) from refunds where payment_id = $1", paymentId)).isEqualTo(1);
        assertThat(count("select count(*) from refunds where payment_id = $1 and attempt = 1"
                + " and reason = 'orphaned_charge' and charge_reference = $2 and amount = 12000", paymentId, attempt1))
                .isEqualTo(1);
        assertThat(count("select count(*) from events where payment_id = $1 and type = 'refund.created'"
                + " and data->>'reason' = 'orphaned_charge'", paymentId)).isEqualTo(1);
        assertThat(count("select count(*) from sandbox_refunds where charge_id = $1 and status = 'succeeded'",
                attempt1)).isEqualTo(1);
        assertThat(count("select amount_reserved + amount_refunded from payments where id = $1", paymentId)).isZero();
    }
}
