package com.payorch.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.gateway.ConnectorNotification;
import com.payorch.gateway.GatewayStatus;
import com.payorch.testsupport.ApiTest;
import com.payorch.testsupport.OwnSchema;
import com.payorch.testsupport.SandboxFaults;
import com.payorch.webhooks.WebhookApplier;
import com.payorch.webhooks.WebhookOutcome;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;

/**
 * Issue 22, findings 1 and 3: a give-up needs the connector's word that nothing was taken, and the connector's late
 * word that money was taken after all is never dropped.
 */
@TestPropertySource(properties = {
        "payments.recovery.pending-after=PT0.2S",
        "payments.recovery.processing-after=PT0.2S",
        "payments.recovery.reconcile-backoff-max=PT0.5S",
        "payments.recovery.give-up-after=PT1S",
        "payments.recovery.interval=PT0.2S",
        // The test decides when the sandbox settles a charge.
        "payments.gateway.sandbox.webhook-delay=PT1H"})
@OwnSchema("give_up_evidence_tests")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class GiveUpOnEvidenceIT extends ApiTest {

    @Autowired
    SandboxFaults faults;
    @Autowired
    WebhookApplier webhooks;
    @Autowired
    MeterRegistry meters;

    @AfterEach
    void healTheSandbox() {
        faults.loseEveryResponse(false);
        faults.lookUps(SandboxFaults.LookUps.TRUTHFUL);
    }

    /** Finding 1 (give-up side): a failed look-up was taken for "no charge" and FAILED the payment. */
    @Test
    void aPendingPaymentPastGiveUpAfterWhoseLookUpFailsStaysPendingAndNeedsAttention() {
        faults.lookUps(SandboxFaults.LookUps.FAIL);
        String paymentId = createPayment(unique("bk"), "pm_card_unavailable");

        // Each pass of the recovery records CANCEL_REQUESTED before it asks the sandbox to cancel by reference, and the
        // sandbox's refusal then records why: the await takes the reason a pass ends with, not the one in between.
        String attention = Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> attentionOf(paymentId),
                reason -> reason != null && !reason.equals(StuckPaymentRecovery.CANCEL_REQUESTED));
        assertThat(attention).startsWith(StuckPaymentRecovery.NO_EVIDENCE).contains("look-up failed");
        Awaitility.await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5))
                .until(() -> "PENDING".equals(statusOf(paymentId)));

        // The connector answers again and confirms it holds no charge: now, and only now, it is given up.
        faults.lookUps(SandboxFaults.LookUps.TRUTHFUL);
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> "FAILED".equals(statusOf(paymentId)));
        assertThat(count("select count(*) from payments where id = $1 and failure_reason = 'gateway_unreachable'",
                paymentId)).isEqualTo(1);
        assertThat(count("select count(*) from payment_attempts where payment_id = $1 and attention_reason is null"
                + " and attention_since is null", paymentId)).as("attention cleared when the attempt settled")
                .isEqualTo(1);
    }

    /**
     * Finding 1's story: a give-up (here on a look-up that missed the charge, as Stripe's lagging search can), the
     * PSP's late success for that attempt, and a second payment for the freed booking that completes. Before: the
     * late success was "ignored" and nobody gave the first charge back.
     */
    @Test
    void aLateSuccessAfterAGiveUpIsAnOrphanedChargeRefundedOnceWhileTheNewPaymentKeepsTheBooking() {
        String booking = unique("bk");
        faults.loseEveryResponse(true);
        faults.lookUps(SandboxFaults.LookUps.MISS_CHARGES);
        postPayment(DEMO_KEY, unique("key"), paymentBody(booking)).exchange().expectStatus().is5xxServerError();
        String first = queries.paymentOfBooking(booking);
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> "FAILED".equals(statusOf(first)));
        healTheSandbox();

        String second = createPayment(booking, "pm_card_ok");
        String lateCharge = chargeOfAttempt(first, 1);
        queries.update("update sandbox_charges set status = 'succeeded' where id = $1", lateCharge);
        double orphansBefore = orphanedCharges();
        ConnectorNotification lateSuccess = new ConnectorNotification(unique("msg"), "payment.succeeded", first, 1,
                lateCharge, GatewayStatus.SUCCEEDED, 12000, "JPY", null, null);

        assertThat(webhooks.apply("sandbox", lateSuccess).block(Duration.ofSeconds(10)))
                .isEqualTo(WebhookOutcome.REJECTED);
        assertThat(webhooks.apply("sandbox", lateSuccess).block(Duration.ofSeconds(10)))
                .isEqualTo(WebhookOutcome.DUPLICATE);
        ConnectorNotification redelivered = new ConnectorNotification(unique("msg"), "payment.succeeded", first, 1,
                lateCharge, GatewayStatus.SUCCEEDED, 12000, "JPY", null, null);
        assertThat(webhooks.apply("sandbox", redelivered).block(Duration.ofSeconds(10)))
                .isEqualTo(WebhookOutcome.REJECTED);

        queries.update("update sandbox_charges set status = 'succeeded' where payment_id = $1", second);
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> "COMPLETED".equals(statusOf(second)));

        assertThat(statusOf(first)).isEqualTo("FAILED");
        assertThat(count("select count(*) from events where payment_id = $1 and type = 'charge.orphaned'", first))
                .isEqualTo(1);
        assertThat(count("select count(*) from refunds where payment_id = $1 and attempt = 1"
                + " and reason = 'orphaned_charge'", first)).isEqualTo(1);
        assertThat(count("select count(*) from payment_attempts where payment_id = $1 and number = 1"
                + " and orphaned_at is not null and reference = $2", first, lateCharge)).isEqualTo(1);
        assertThat(count("select count(*) from bookings where id = $1 and status = 'ACTIVE'", booking)).isEqualTo(1);
        assertThat(orphanedCharges() - orphansBefore).isEqualTo(1.0);
    }

    private String attentionOf(String paymentId) {
        String reason = queries.text("select a.attention_reason from payment_attempts a join payments p"
                + " on p.id = a.payment_id and p.attempt = a.number where p.id = $1", paymentId);
        return "null".equals(reason) ? null : reason;
    }

    private String chargeOfAttempt(String paymentId, int attempt) {
        return queries.text("select id from sandbox_charges where payment_id = $1 and attempt = $2", paymentId,
                attempt);
    }

    private double orphanedCharges() {
        var counter = meters.find("payments.orphaned.charges").tag("connector", "sandbox").counter();
        return counter == null ? 0 : counter.count();
    }
}
