package com.payorch.refunds;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.testsupport.OwnSchema;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * Refunds reversed after they SUCCEEDED (issue 22, finding 4; contract v3 "Refunds in doubt and reversed"): the
 * connector's `refund.failed` for a SUCCEEDED refund, through the webhook endpoint with the sandbox's own signature,
 * moves it to FAILED (REVERSE), gives its amount back to what is refundable, writes `refund.reversed` and leaves a
 * CANCELLED booking CANCELLED; an orphaned charge's reversed refund needs attention and is not made again.
 */
@TestPropertySource(properties = {
        "payments.gateway.sandbox.webhook-delay=PT0.2S",
        "payments.recovery.interval=PT0.2S",
        "payments.recovery.refund-pending-after=PT0.2S"})
@OwnSchema("refund_reversal_tests")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class RefundReversalIT extends RefundApiTest {

    @Autowired
    MeterRegistry registry;

    private String succeededRefund(String paymentId, long amount) {
        String refundId = json(refund(paymentId, unique("rk"), "{\"amount\": " + amount + "}"), 201)
                .path("id").asText();
        Awaitility.await().atMost(WAIT).until(() -> "SUCCEEDED".equals(refundStatus(refundId)));
        return refundId;
    }

    private double reversedCount() {
        return registry.counter("payments.refunds.reversed").count();
    }

    @Test
    void aRefundFailedAfterItSucceededReversesItAndItsAmountIsRefundableAgain() {
        String booking = unique("bk");
        String paymentId = completedPayment(booking, "pm_card_ok");
        String refundId = succeededRefund(paymentId, 5000);
        assertThat(amountRefunded(paymentId)).isEqualTo(5000);
        double reversedBefore = reversedCount();

        refundWebhook(unique("msg"), "refund.failed", refundId, paymentId, 5000).expectStatus().isOk()
                .expectBody().jsonPath("$.status").isEqualTo("applied");

        JsonNode reversed = get("/v1/refunds/" + refundId);
        assertThat(reversed.path("status").asText()).isEqualTo("FAILED");
        assertThat(reversed.path("failureReason").asText()).isEqualTo("expired_or_canceled_card");
        assertThat(reversed.path("version").asLong()).isEqualTo(3);
        assertThat(amountRefunded(paymentId)).isZero();
        assertThat(count("select amount_reserved from payments where id = $1", paymentId)).isZero();
        assertThat(count("select count(*) from events where payment_id = $1 and type = 'refund.reversed'"
                + " and data->>'refundId' = $2 and (data->>'amount')::bigint = 5000 and data->>'status' = 'FAILED'",
                paymentId, refundId)).isEqualTo(1);
        assertThat(get("/v1/bookings/" + booking).path("status").asText()).isEqualTo("ACTIVE");
        assertThat(reversedCount()).isEqualTo(reversedBefore + 1);

        // the whole amount is refundable again, and refunded
        String again = succeededRefund(paymentId, 12000);
        assertThat(get("/v1/refunds/" + again).path("amount").asLong()).isEqualTo(12000);
        assertThat(amountRefunded(paymentId)).isEqualTo(12000);
    }

    @Test
    void aReversalIsAppliedOnceAndLeavesACancelledBookingCancelled() {
        String booking = unique("bk");
        String paymentId = completedPayment(booking, "pm_card_ok");
        String refundId = succeededRefund(paymentId, 12000);
        assertThat(get("/v1/bookings/" + booking).path("status").asText()).isEqualTo("CANCELLED");

        String webhookId = unique("msg");
        refundWebhook(webhookId, "refund.failed", refundId, paymentId, 12000).expectStatus().isOk()
                .expectBody().jsonPath("$.status").isEqualTo("applied");
        refundWebhook(webhookId, "refund.failed", refundId, paymentId, 12000).expectStatus().isOk()
                .expectBody().jsonPath("$.status").isEqualTo("duplicate");
        refundWebhook(unique("msg"), "refund.failed", refundId, paymentId, 12000).expectStatus().isOk()
                .expectBody().jsonPath("$.status").isEqualTo("ignored");
        // a late success of the reversed refund changes nothing either
        refundWebhook(unique("msg"), "refund.succeeded", refundId, paymentId, 12000).expectStatus().isOk()
                .expectBody().jsonPath("$.status").isEqualTo("ignored");

        assertThat(refundStatus(refundId)).isEqualTo("FAILED");
        assertThat(amountRefunded(paymentId)).isZero();
        assertThat(get("/v1/bookings/" + booking).path("status").asText()).isEqualTo("CANCELLED");
        assertThat(count("select count(*) from events where payment_id = $1 and type = 'refund.reversed'",
                paymentId)).isEqualTo(1);
    }

    @Test
    void aReversedOrphanedChargeRefundNeedsAttentionAndIsNotMadeAgain() {
        String paymentId = createPayment(unique("bk"), "pm_card_ok");
        String attempt1 = latestChargeOf(paymentId);
        sendWebhook(unique("msg"), webhookBody("payment.failed", paymentId, attempt1, 12000, "JPY"))
                .expectStatus().isOk();
        client.post().uri("/v1/payments/" + paymentId + "/retry").header("Authorization", "Bearer " + DEMO_KEY)
                .header("Idempotency-Key", unique("retry")).exchange().expectStatus().isOk();
        sendWebhook(unique("msg"), webhookBody("payment.succeeded", paymentId, attempt1, 12000, "JPY"))
                .expectStatus().isOk();
        Awaitility.await().atMost(WAIT).until(() -> count("select count(*) from refunds where payment_id = $1"
                + " and status = 'SUCCEEDED'", paymentId) == 1);
        String refundId = db.sql("select id from refunds where payment_id = $1").bind(0, paymentId)
                .map(row -> row.get(0, String.class)).one().block(WAIT);

        String body = ("{\"type\": \"refund.failed\", \"data\": {\"refundId\": \"%s\", \"paymentId\": \"%s\","
                + " \"chargeId\": \"%s\", \"amount\": 12000, \"currency\": \"JPY\"}}").formatted(refundId, paymentId,
                attempt1);
        sendWebhook(unique("msg"), body).expectStatus().isOk().expectBody().jsonPath("$.status").isEqualTo("applied");

        assertThat(refundStatus(refundId)).isEqualTo("FAILED");
        assertThat(attentionOf(refundId)).isEqualTo(Refunds.ORPHAN_REFUND_REVERSED);
        assertThat(count("select amount_reserved + amount_refunded from payments where id = $1", paymentId)).isZero();
        assertThat(count("select count(*) from events where payment_id = $1 and type = 'refund.reversed'"
                + " and (data->>'attempt')::int = 1", paymentId)).isEqualTo(1);
        // the reconciler runs every 0.2 s: no new refund of the charge is made while a person has not looked
        Awaitility.await().during(java.time.Duration.ofSeconds(2)).atMost(WAIT).until(() ->
                count("select count(*) from refunds where payment_id = $1", paymentId) == 1);
    }

    /**
     * Many refunds race a reversal: the payment's counters stay within its amount and agree with its refunds' rows
     * once everything settled.
     */
    @Test
    void parallelRefundsRacingAReversalNeverRefundMoreThanThePaymentAndTheCountersMatchTheRows() throws Exception {
        String paymentId = completedPayment(unique("bk"), "pm_card_ok");
        String first = succeededRefund(paymentId, 6000);

        HttpClient http = HttpClient.newHttpClient();
        List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            if (i == 10) {
                refundWebhook(unique("msg"), "refund.failed", first, paymentId, 6000).expectStatus().isOk();
            }
            answers.add(http.sendAsync(HttpRequest.newBuilder(URI.create("http://localhost:" + port
                                    + "/v1/payments/" + paymentId + "/refunds"))
                            .header("Authorization", "Bearer " + DEMO_KEY)
                            .header("Idempotency-Key", unique("rk"))
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString("{\"amount\": 700}"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString()));
        }
        int created = 0;
        for (CompletableFuture<HttpResponse<String>> answer : answers) {
            HttpResponse<String> response = answer.get();
            assertThat(response.statusCode()).as(response.body()).isIn(201, 409);
            created += response.statusCode() == 201 ? 1 : 0;
        }
        assertThat(refundStatus(first)).isEqualTo("FAILED");
        // 6000 was refundable before the reversal, 12000 after it: between 8 and 17 refunds of 700 fit
        assertThat(created).isBetween(8, 17);

        Awaitility.await().atMost(WAIT).until(() -> count("select count(*) from refunds where payment_id = $1"
                + " and status = 'PENDING'", paymentId) == 0);
        long succeeded = count("select coalesce(sum(amount), 0) from refunds where payment_id = $1"
                + " and counts_against_payment and status = 'SUCCEEDED'", paymentId);
        assertThat(succeeded).isEqualTo(700L * created).isLessThanOrEqualTo(12000);
        assertThat(amountRefunded(paymentId)).isEqualTo(succeeded);
        assertThat(count("select amount_reserved from payments where id = $1", paymentId)).isEqualTo(succeeded);
    }
}
