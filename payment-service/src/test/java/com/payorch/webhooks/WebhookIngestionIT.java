package com.payorch.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.testsupport.ApiTest;
import com.payorch.testsupport.SignedWebhooks;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Flux;

class WebhookIngestionIT extends ApiTest {

    @Test
    void succeededCompletesThePaymentAndActivatesTheBookingOnce() {
        String booking = unique("bk");
        String paymentId = createPayment(booking, "pm_card_ok");
        String webhookId = unique("msg");

        sendWebhook(webhookId, webhookBody("payment.succeeded", paymentId, 12000, "JPY"))
                .expectStatus().isOk().expectBody().json("{\"status\":\"applied\"}", true);

        client.get().uri("/v1/payments/" + paymentId).header("Authorization", "Bearer " + DEMO_KEY).exchange()
                .expectStatus().isOk()
                .expectHeader().valueEquals("ETag", "\"3\"")
                .expectBody()
                .jsonPath("$.status").isEqualTo("COMPLETED")
                .jsonPath("$.history.length()").isEqualTo(3)
                .jsonPath("$.history[2].event").isEqualTo("SUCCEED")
                .jsonPath("$.history[2].source").isEqualTo("webhook")
                .jsonPath("$.history[2].sourceId").isEqualTo(webhookId);
        client.get().uri("/v1/bookings/" + booking).header("Authorization", "Bearer " + DEMO_KEY).exchange()
                .expectStatus().isOk()
                .expectBody()
                .jsonPath("$.status").isEqualTo("ACTIVE")
                .jsonPath("$.paymentId").isEqualTo(paymentId)
                .jsonPath("$.activatedAt").isNotEmpty();
        assertThat(count("select count(*) from events where booking_id = $1 and type = 'booking.activated'", booking))
                .isEqualTo(1);
        assertThat(count("select count(*) from events where payment_id = $1 and type = 'payment.completed'", paymentId))
                .isEqualTo(1);

        // A redelivery is a duplicate; a second payment for the paid booking is refused.
        sendWebhook(webhookId, webhookBody("payment.succeeded", paymentId, 12000, "JPY"))
                .expectStatus().isOk().expectBody().json("{\"status\":\"duplicate\"}", true);
        postPayment(DEMO_KEY, unique("key"), paymentBody(booking)).exchange()
                .expectStatus().isEqualTo(409).expectBody().jsonPath("$.code").isEqualTo("booking_already_paid");
    }

    @Test
    void twentyRacingDeliveriesOfOneWebhookApplyOnce() {
        String paymentId = createPayment(unique("bk"), "pm_card_ok");
        String webhookId = unique("msg");
        String body = webhookBody("payment.succeeded", paymentId, 12000, "JPY");
        var headers = SignedWebhooks.sign(WEBHOOK_SECRET, webhookId, Instant.now(), body);
        WebClient web = WebClient.builder().baseUrl("http://localhost:" + port).build();

        List<String> answers = Flux.range(0, 20)
                .flatMap(i -> web.post().uri("/v1/webhooks/sandbox")
                        .headers(h -> h.addAll(headers))
                        .header("Content-Type", "application/json")
                        .bodyValue(body)
                        .retrieve()
                        .bodyToMono(Map.class)
                        .map(answer -> (String) answer.get("status")), 20)
                .collectList()
                .block(Duration.ofSeconds(60));

        assertThat(answers).filteredOn("applied"::equals).hasSize(1);
        assertThat(answers).filteredOn("duplicate"::equals).hasSize(19);
        assertThat(count("select count(*) from payment_transitions where payment_id = $1 and event = 'SUCCEED'",
                paymentId)).isEqualTo(1);
        assertThat(count("select count(*) from webhook_receipts where webhook_id = $1", webhookId)).isEqualTo(1);
        assertThat(statusOf(paymentId)).isEqualTo("COMPLETED");
    }

    @Test
    void succeededBeforeProcessingGoesThroughProcessingAndTheLateProcessingIsIgnored() {
        String booking = unique("bk");
        String paymentId = createPayment(booking, "pm_card_unavailable"); // stays PENDING
        // The gateway did take the charge, and its reference is known (a notification that names no attempt is
        // bound only by a recorded reference, never by elimination: ExactBindingIT), but no outcome was applied.
        String chargeId = "ch_" + unique("late");
        db.sql("insert into sandbox_charges (id, payment_id, attempt, amount, currency, payment_method, status,"
                        + " created_at, updated_at) values ($1, $2, 1, 12000, 'JPY', 'pm_card_ok', 'succeeded', now(), now())")
                .bind(0, chargeId).bind(1, paymentId).then().block(java.time.Duration.ofSeconds(10));
        queries.update("update payment_attempts set reference = $1 where payment_id = $2", chargeId, paymentId);
        String succeeded = unique("msg");

        sendWebhook(succeeded, webhookBody("payment.succeeded", paymentId, chargeId, 12000, "JPY"))
                .expectStatus().isOk().expectBody().json("{\"status\":\"applied\"}", true);
        client.get().uri("/v1/payments/" + paymentId).header("Authorization", "Bearer " + DEMO_KEY).exchange()
                .expectBody()
                .jsonPath("$.status").isEqualTo("COMPLETED")
                .jsonPath("$.version").isEqualTo(3)
                .jsonPath("$.history[1].to").isEqualTo("PROCESSING")
                .jsonPath("$.history[1].source").isEqualTo("webhook")
                .jsonPath("$.history[1].sourceId").isEqualTo(succeeded)
                .jsonPath("$.history[2].to").isEqualTo("COMPLETED")
                .jsonPath("$.history[2].sourceId").isEqualTo(succeeded);

        String late = unique("msg");
        sendWebhook(late, webhookBody("payment.processing", paymentId, chargeId, 12000, "JPY"))
                .expectStatus().isOk().expectBody().json("{\"status\":\"ignored\"}", true);
        assertThat(statusOf(paymentId)).isEqualTo("COMPLETED");
        assertThat(count("select count(*) from webhook_receipts where webhook_id = $1 and outcome = 'ignored'", late))
                .isEqualTo(1);
        assertThat(count("select count(*) from events where booking_id = $1 and type = 'booking.activated'", booking))
                .isEqualTo(1);
    }

    @Test
    void failedAfterCompletedIsIgnoredAndChangesNothing() {
        String paymentId = createPayment(unique("bk"), "pm_card_ok");
        sendWebhook(unique("msg"), webhookBody("payment.succeeded", paymentId, 12000, "JPY")).expectStatus().isOk();
        String contradiction = unique("msg");

        sendWebhook(contradiction, webhookBody("payment.failed", paymentId, 12000, "JPY"))
                .expectStatus().isOk().expectBody().json("{\"status\":\"ignored\"}", true);

        assertThat(statusOf(paymentId)).isEqualTo("COMPLETED");
        assertThat(count("select version from payments where id = $1", paymentId)).isEqualTo(3);
        assertThat(count("select count(*) from webhook_receipts where webhook_id = $1 and outcome = 'ignored'",
                contradiction)).isEqualTo(1);
    }

    @Test
    void anAmountOrCurrencyMismatchIsRejectedAsAnAnomaly() {
        String paymentId = createPayment(unique("bk"), "pm_card_ok");
        String wrongAmount = unique("msg");
        String wrongCurrency = unique("msg");

        sendWebhook(wrongAmount, webhookBody("payment.succeeded", paymentId, 1200, "JPY"))
                .expectStatus().isOk().expectBody().json("{\"status\":\"rejected\"}", true);
        sendWebhook(wrongCurrency, webhookBody("payment.succeeded", paymentId, 12000, "USD"))
                .expectStatus().isOk().expectBody().json("{\"status\":\"rejected\"}", true);

        assertThat(statusOf(paymentId)).isEqualTo("PROCESSING");
        assertThat(count("select count(*) from webhook_receipts where payment_id = $1 and outcome = 'rejected'",
                paymentId)).isEqualTo(2);
    }

    @Test
    void failedMovesThePaymentToFailedWithItsReasonAndItCanBeRetried() {
        String paymentId = createPayment(unique("bk"), "pm_card_declined");
        sendWebhook(unique("msg"), webhookBody("payment.failed", paymentId, 12000, "JPY"))
                .expectStatus().isOk().expectBody().json("{\"status\":\"applied\"}", true);

        client.get().uri("/v1/payments/" + paymentId).header("Authorization", "Bearer " + DEMO_KEY).exchange()
                .expectBody()
                .jsonPath("$.status").isEqualTo("FAILED")
                .jsonPath("$.failureReason").isEqualTo("card_declined");
        assertThat(count("select count(*) from events where payment_id = $1 and type = 'payment.failed'", paymentId))
                .isEqualTo(1);
        client.post().uri("/v1/payments/" + paymentId + "/retry").header("Authorization", "Bearer " + DEMO_KEY)
                .header("Idempotency-Key", unique("key")).exchange()
                .expectStatus().isOk().expectBody().jsonPath("$.status").isEqualTo("PROCESSING");
    }

    @Test
    void anUnknownPaymentIsNotFoundAndNothingIsRecorded() {
        String webhookId = unique("msg");
        sendWebhook(webhookId, webhookBody("payment.succeeded", "pay_unknown000000000000000", 12000, "JPY"))
                .expectStatus().isNotFound()
                .expectBody().jsonPath("$.code").isEqualTo("not_found");
        assertThat(count("select count(*) from webhook_receipts where webhook_id = $1", webhookId)).isZero();
    }

    @Test
    void aBadSignatureIsRefusedBeforeAnythingIsRecordedOrParsed() {
        String paymentId = createPayment(unique("bk"), "pm_card_ok");
        String webhookId = unique("msg");
        String body = webhookBody("payment.succeeded", paymentId, 12000, "JPY");
        var headers = SignedWebhooks.sign(WEBHOOK_SECRET, webhookId, Instant.now(), body);

        client.post().uri("/v1/webhooks/sandbox")
                .headers(h -> h.addAll(headers))
                .header("Content-Type", "application/json")
                .bodyValue(body.replace("12000", "12001"))
                .exchange()
                .expectStatus().isUnauthorized()
                .expectBody().jsonPath("$.code").isEqualTo("webhook_signature_invalid");
        client.post().uri("/v1/webhooks/sandbox")
                .header("Content-Type", "application/json")
                .bodyValue("not even json")
                .exchange()
                .expectStatus().isUnauthorized()
                .expectBody().jsonPath("$.code").isEqualTo("webhook_signature_invalid");

        assertThat(count("select count(*) from webhook_receipts where webhook_id = $1", webhookId)).isZero();
        assertThat(statusOf(paymentId)).isEqualTo("PROCESSING");
    }

    @Test
    void aSignedButMalformedOrUnknownWebhookIsInvalid() {
        sendWebhook(unique("msg"), "{\"type\": \"payment.succeeded\", \"data\": ")
                .expectStatus().isBadRequest().expectBody().jsonPath("$.code").isEqualTo("webhook_invalid");
        sendWebhook(unique("msg"), "{\"type\": \"payment.refunded\", \"data\": {\"paymentId\": \"pay_x\","
                + " \"amount\": 1, \"currency\": \"JPY\"}}")
                .expectStatus().isBadRequest().expectBody().jsonPath("$.code").isEqualTo("webhook_invalid");
        sendWebhook(unique("msg"), "{\"type\": \"payment.succeeded\", \"data\": {\"paymentId\": \"pay_x\","
                + " \"amount\": \"12000\", \"currency\": \"JPY\"}}")
                .expectStatus().isBadRequest().expectBody().jsonPath("$.code").isEqualTo("webhook_invalid");
    }

    @Test
    void aControlCharacterInASignedWebhookIsInvalidAndRecordsNothing() {
        String paymentId = createPayment(unique("bk"), "pm_card_declined");
        String nulReason = unique("msg");
        sendWebhook(nulReason, webhookBody("payment.failed", paymentId, 12000, "JPY")
                        .replace("card_declined", "card\\u0000declined"))
                .expectStatus().isBadRequest()
                .expectBody().jsonPath("$.code").isEqualTo("webhook_invalid")
                .jsonPath("$.detail").value(detail -> assertThat((String) detail).contains("failureReason"));
        String bellReason = unique("msg");
        sendWebhook(bellReason, webhookBody("payment.failed", paymentId, 12000, "JPY")
                        .replace("card_declined", "card\\u0007declined"))
                .expectStatus().isBadRequest()
                .expectBody().jsonPath("$.code").isEqualTo("webhook_invalid");
        String nulPayment = unique("msg");
        sendWebhook(nulPayment, webhookBody("payment.failed", paymentId + "\\u0000", 12000, "JPY"))
                .expectStatus().isBadRequest()
                .expectBody().jsonPath("$.code").isEqualTo("webhook_invalid");

        assertThat(count("select count(*) from webhook_receipts where webhook_id in ($1, $2, $3)",
                nulReason, bellReason, nulPayment)).isZero();
        assertThat(statusOf(paymentId)).isEqualTo("PROCESSING");
        assertThat(count("select version from payments where id = $1", paymentId)).isEqualTo(2);
    }
}
