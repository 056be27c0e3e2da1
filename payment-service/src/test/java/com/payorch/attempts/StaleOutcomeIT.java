package com.payorch.attempts;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.gateway.GatewayOutcome;
import com.payorch.gateway.GatewayStatus;
import com.payorch.payments.GatewayOutcomes;
import com.payorch.payments.OutcomeResult;
import com.payorch.payments.PaymentQueries;
import com.payorch.payments.RetryingTransaction;
import com.payorch.payments.TransitionOrigin;
import com.payorch.payments.TransitionSource;
import com.payorch.testsupport.ApiTest;
import com.payorch.testsupport.SandboxFaults;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Defect (issue 8): a gateway outcome about a superseded attempt was applied to the current one. Each test builds a
 * payment whose attempt 1 was declined and retried (attempt 2 live), then lets attempt 1's outcome arrive late.
 */
class StaleOutcomeIT extends ApiTest {

    @Autowired
    SandboxFaults faults;
    @Autowired
    GatewayOutcomes outcomes;
    @Autowired
    PaymentQueries payments;
    @Autowired
    RetryingTransaction transaction;

    private String status(String paymentId) {
        return db.sql("select status from payments where id = $1").bind(0, paymentId)
                .map(row -> row.get(0, String.class)).one().block(Duration.ofSeconds(10));
    }

    private String chargeOf(String paymentId, int attempt) {
        return db.sql("select id from sandbox_charges where payment_id = $1 and attempt = $2")
                .bind(0, paymentId).bind(1, attempt)
                .map(row -> row.get(0, String.class)).one().block(Duration.ofSeconds(10));
    }

    /** Attempt 1 declined (webhook), then retried: attempt 2 PROCESSING at the sandbox. Answers attempt 1's charge. */
    private String declinedAndRetried(String paymentId) {
        String attempt1 = chargeOf(paymentId, 1);
        sendWebhook(unique("msg"), webhookBody("payment.failed", paymentId, attempt1, 12000, "JPY"))
                .expectStatus().isOk().expectBody().json("{\"status\":\"applied\"}", true);
        retry(paymentId).expectStatus().isOk().expectBody().jsonPath("$.attempt").isEqualTo(2);
        return attempt1;
    }

    private org.springframework.test.web.reactive.server.WebTestClient.ResponseSpec retry(String paymentId) {
        return client.post().uri("/v1/payments/" + paymentId + "/retry")
                .header("Authorization", "Bearer " + DEMO_KEY)
                .header("Idempotency-Key", unique("retry"))
                .exchange();
    }

    @Test
    void aStaleFailureOfAttempt1IsIgnoredAndAttempt2sSuccessCompletesThePayment() {
        String booking = unique("bk");
        String paymentId = createPayment(booking, "pm_card_declined");
        String attempt1 = declinedAndRetried(paymentId);
        assertThat(status(paymentId)).isEqualTo("PROCESSING");

        String stale = unique("msg");
        sendWebhook(stale, webhookBody("payment.failed", paymentId, attempt1, 12000, "JPY"))
                .expectStatus().isOk().expectBody().json("{\"status\":\"ignored\"}", true);
        assertThat(status(paymentId)).isEqualTo("PROCESSING");
        assertThat(count("select count(*) from webhook_receipts where webhook_id = $1 and outcome = 'ignored'", stale))
                .isEqualTo(1);

        sendWebhook(unique("msg"), webhookBody("payment.succeeded", paymentId, chargeOf(paymentId, 2), 12000, "JPY"))
                .expectStatus().isOk().expectBody().json("{\"status\":\"applied\"}", true);
        assertThat(status(paymentId)).isEqualTo("COMPLETED");
        assertThat(count("select count(*) from bookings where id = $1 and status = 'ACTIVE'", booking)).isEqualTo(1);
        client.get().uri("/v1/payments/" + paymentId).header("Authorization", "Bearer " + DEMO_KEY).exchange()
                .expectBody()
                .jsonPath("$.attempt").isEqualTo(2)
                .jsonPath("$.connector").isEqualTo("sandbox")
                .jsonPath("$.connectorReference").isEqualTo(chargeOf(paymentId, 2))
                .jsonPath("$.attempts[0].status").isEqualTo("FAILED")
                .jsonPath("$.attempts[0].reference").isEqualTo(attempt1)
                .jsonPath("$.attempts[1].status").isEqualTo("SUCCEEDED")
                .jsonPath("$.amountRefunded").isEqualTo(0);
    }

    @Test
    void aStaleProcessingDoesNotMoveARetriedPaymentThatWasNotSentYet() {
        String paymentId = createPayment(unique("bk"), "pm_card_declined");
        String attempt1 = chargeOf(paymentId, 1);
        sendWebhook(unique("msg"), webhookBody("payment.failed", paymentId, attempt1, 12000, "JPY"))
                .expectStatus().isOk();
        faults.loseNextResponse(); // attempt 2's submit: its answer is lost, the payment stays PENDING
        retry(paymentId).expectStatus().is5xxServerError();
        assertThat(status(paymentId)).isEqualTo("PENDING");

        sendWebhook(unique("msg"), webhookBody("payment.processing", paymentId, attempt1, 12000, "JPY"))
                .expectStatus().isOk().expectBody().json("{\"status\":\"ignored\"}", true);
        assertThat(status(paymentId)).isEqualTo("PENDING");
    }

    @Test
    void aStaleSuccessIsAnOrphanedChargeReportedOnce() {
        String paymentId = createPayment(unique("bk"), "pm_card_declined");
        String attempt1 = declinedAndRetried(paymentId);

        for (int i = 0; i < 3; i++) {
            sendWebhook(unique("msg"), webhookBody("payment.succeeded", paymentId, attempt1, 12000, "JPY"))
                    .expectStatus().isOk().expectBody().json("{\"status\":\"rejected\"}", true);
        }
        assertThat(status(paymentId)).isEqualTo("PROCESSING");
        assertThat(count("select count(*) from events where payment_id = $1 and type = 'charge.orphaned'", paymentId))
                .isEqualTo(1);
        client.get().uri("/v1/events?paymentId=" + paymentId + "&type=charge.orphaned")
                .header("Authorization", "Bearer " + DEMO_KEY).exchange()
                .expectBody()
                .jsonPath("$.data[0].data.attempt").isEqualTo(1)
                .jsonPath("$.data[0].data.connector").isEqualTo("sandbox")
                .jsonPath("$.data[0].data.reference").isEqualTo(attempt1)
                .jsonPath("$.data[0].data.amount").isEqualTo(12000)
                .jsonPath("$.data[0].data.currency").isEqualTo("JPY");
    }

    @Test
    void theReconcilersOutcomeOfAttempt1IsIgnoredOnceARetryMovedThePaymentToAttempt2() {
        String paymentId = createPayment(unique("bk"), "pm_card_declined");
        String attempt1 = declinedAndRetried(paymentId);
        // What the reconciler fetched for attempt 1 before the retry, applied after it (its settle step).
        GatewayOutcome fetched = new GatewayOutcome(paymentId, 1, "sandbox", attempt1, GatewayStatus.FAILED,
                "card_declined");

        OutcomeResult result = transaction.run(() -> payments.findAnyMerchant(paymentId)
                        .flatMap(current -> outcomes.apply(current, fetched,
                                new TransitionOrigin(TransitionSource.RECONCILER, attempt1))))
                .block(Duration.ofSeconds(10));

        assertThat(result.kind()).isEqualTo(OutcomeResult.Kind.IGNORED);
        assertThat(status(paymentId)).isEqualTo("PROCESSING");
        assertThat(count("select count(*) from payment_transitions where payment_id = $1 and source = 'reconciler'",
                paymentId)).isZero();
    }

    @Test
    void aChargeNoAttemptHasIsIgnored() {
        String paymentId = createPayment(unique("bk"), "pm_card_ok");
        sendWebhook(unique("msg"), webhookBody("payment.succeeded", paymentId, "ch_someoneelses", 12000, "JPY"))
                .expectStatus().isOk().expectBody().json("{\"status\":\"ignored\"}", true);
        assertThat(status(paymentId)).isEqualTo("PROCESSING");
    }

    @Test
    void aSandboxWebhookWithoutChargeIdIsInvalid() {
        String paymentId = createPayment(unique("bk"), "pm_card_ok");
        sendWebhook(unique("msg"), "{\"type\": \"payment.succeeded\", \"data\": {\"paymentId\": \"" + paymentId
                + "\", \"amount\": 12000, \"currency\": \"JPY\"}}")
                .expectStatus().isBadRequest().expectBody().jsonPath("$.code").isEqualTo("webhook_invalid");
    }
}
