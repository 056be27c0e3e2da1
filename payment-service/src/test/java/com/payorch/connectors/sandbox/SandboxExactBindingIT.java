package com.payorch.connectors.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.testsupport.ApiTest;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Issue 22 finding 5 (the sandbox part): the sandbox knows its charges, so a signed webhook naming a charge it never
 * made changes nothing (200 ignored, recorded, counted), and one naming a charge it made is bound to that charge's
 * attempt.
 */
class SandboxExactBindingIT extends ApiTest {

    @Autowired
    private MeterRegistry registry;

    @Test
    void aSignedSuccessNamingAChargeTheSandboxNeverMadeDoesNotCompleteThePayment() {
        // The submit never reached the sandbox: PENDING, and the sandbox holds no charge for it.
        String paymentId = createPayment(unique("bk"), "pm_card_unavailable");
        String webhookId = unique("msg");
        double ignoredBefore = ignoredCount();

        sendWebhook(webhookId, webhookBody("payment.succeeded", paymentId, "ch_" + unique("madeup"), 12000, "JPY"))
                .expectStatus().isOk().expectBody().json("{\"status\":\"ignored\"}", true);

        assertThat(statusOf(paymentId)).isEqualTo("PENDING");
        assertThat(count("select count(*) from webhook_receipts where webhook_id = $1 and outcome = 'ignored'",
                webhookId)).isEqualTo(1);
        assertThat(count("select count(*) from payment_attempts where payment_id = $1 and reference is not null",
                paymentId)).isZero();
        assertThat(ignoredCount()).isGreaterThan(ignoredBefore);
        // Its redelivery is a duplicate.
        sendWebhook(webhookId, webhookBody("payment.succeeded", paymentId, "ch_madeup", 12000, "JPY"))
                .expectStatus().isOk().expectBody().json("{\"status\":\"duplicate\"}", true);
    }

    @Test
    void aChargeOfAnotherPaymentNeverSettlesThisOne() {
        String paid = createPayment(unique("bk"), "pm_card_ok");
        String other = createPayment(unique("bk"), "pm_card_unavailable");
        String webhookId = unique("msg");

        sendWebhook(webhookId, webhookBody("payment.succeeded", other, latestChargeOf(paid), 12000, "JPY"))
                .expectStatus().isOk();

        assertThat(statusOf(other)).isEqualTo("PENDING");
    }

    @Test
    void aChargeTheSandboxMadeWhoseSubmitAnswerWasLostIsBoundToItsAttempt() {
        String paymentId = createPayment(unique("bk"), "pm_card_unavailable");
        String chargeId = "ch_" + unique("late");
        db.sql("insert into sandbox_charges (id, payment_id, attempt, amount, currency, payment_method, status,"
                        + " created_at, updated_at) values ($1, $2, 1, 12000, 'JPY', 'pm_card_ok', 'succeeded', now(),"
                        + " now())")
                .bind(0, chargeId).bind(1, paymentId).then().block(java.time.Duration.ofSeconds(10));

        sendWebhook(unique("msg"), webhookBody("payment.succeeded", paymentId, chargeId, 12000, "JPY"))
                .expectStatus().isOk().expectBody().json("{\"status\":\"applied\"}", true);

        assertThat(statusOf(paymentId)).isEqualTo("COMPLETED");
        assertThat(count("select count(*) from payment_attempts where payment_id = $1 and number = 1"
                + " and reference = $2", paymentId, chargeId)).isEqualTo(1);
    }

    private double ignoredCount() {
        var counter = registry.find("payments.webhooks").tag("outcome", "ignored").counter();
        return counter == null ? 0 : counter.count();
    }
}
