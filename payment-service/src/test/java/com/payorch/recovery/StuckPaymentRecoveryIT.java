package com.payorch.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.testsupport.ApiTest;
import com.payorch.testsupport.OwnSchema;
import com.payorch.testsupport.SandboxFaults;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.r2dbc.core.Parameter;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;

/** The recovery jobs on a short fuse; the context is closed afterwards so they touch no other test's payments. */
@TestPropertySource(properties = {
        "payments.recovery.pending-after=PT1S",
        "payments.recovery.processing-after=PT1S",
        "payments.recovery.interval=PT0.2S",
        // Each test decides what the gateway says: no sandbox settles these charges by itself, neither this
        // context's (long delay) nor another cached context's (this context has its own schema).
        "payments.gateway.sandbox.webhook-delay=PT1H"})
@OwnSchema("recovery_tests")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class StuckPaymentRecoveryIT extends ApiTest {

    @Autowired
    SandboxFaults faults;

    private void gatewaySettles(String paymentId, String status, String reason) {
        queries.update("update sandbox_charges set status = $1, failure_reason = $2 where payment_id = $3",
                status, Parameter.fromOrEmpty(reason, String.class), paymentId);
    }

    @Test
    void runsInItsOwnSchema() {
        assertThat(queries.text("select current_schema()")).isEqualTo("recovery_tests");
    }

    @Test
    void aPendingPaymentWhoseClientGaveUpIsResubmittedWithoutASecondCharge() {
        String booking = unique("bk");
        faults.loseNextResponse();
        postPayment(DEMO_KEY, unique("key"), paymentBody(booking)).exchange().expectStatus().is5xxServerError();
        String paymentId = queries.paymentOfBooking(booking);

        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> "PROCESSING".equals(statusOf(paymentId)));

        assertThat(count("select count(*) from sandbox_charges where payment_id = $1", paymentId)).isEqualTo(1);
        assertThat(count("select count(*) from payment_transitions where payment_id = $1 and event = 'SUBMIT'"
                + " and source = 'recovery'", paymentId)).isEqualTo(1);
    }

    @Test
    void aProcessingPaymentIsSettledWithTheGatewaysOutcome() {
        String booking = unique("bk");
        String succeeded = createPayment(booking, "pm_card_ok");
        String declined = createPayment(unique("bk"), "pm_card_declined");
        gatewaySettles(succeeded, "succeeded", null);
        gatewaySettles(declined, "failed", "card_declined");

        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() ->
                "COMPLETED".equals(statusOf(succeeded)) && "FAILED".equals(statusOf(declined)));

        assertThat(count("select count(*) from payment_transitions where payment_id = $1 and event = 'SUCCEED'"
                + " and source = 'reconciler'", succeeded)).isEqualTo(1);
        assertThat(count("select count(*) from payments where id = $1 and failure_reason = 'card_declined'", declined))
                .isEqualTo(1);
        assertThat(count("select count(*) from events where booking_id = $1 and type = 'booking.activated'", booking))
                .isEqualTo(1);
    }

    @Test
    void aPaymentWithoutAnOutcomeAtTheGatewayStaysProcessing() {
        String paymentId = createPayment(unique("bk"), "pm_card_ok");
        String other = createPayment(unique("bk"), "pm_card_ok");
        gatewaySettles(other, "succeeded", null);

        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> "COMPLETED".equals(statusOf(other)));
        assertThat(statusOf(paymentId)).isEqualTo("PROCESSING");
    }

    @Test
    void aProcessingPaymentWhoseChargeTheGatewayDoesNotHoldIsResubmittedNotLeftProcessing() {
        String paymentId = createPayment(unique("bk"), "pm_card_ok");
        db.sql("delete from sandbox_charges where payment_id = $1").bind(0, paymentId).then()
                .block(Duration.ofSeconds(10));

        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() ->
                count("select count(*) from sandbox_charges where payment_id = $1 and attempt = 1", paymentId) == 1);
        assertThat(statusOf(paymentId)).isEqualTo("PROCESSING");
        gatewaySettles(paymentId, "succeeded", null);
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> "COMPLETED".equals(statusOf(paymentId)));
    }

    @Test
    void aPaymentTheGatewayCannotSettleIsLookedAtLessOftenTheLongerItHasWaited() {
        // Stuck for two hours at a gateway that keeps saying "processing" (an Adyen `Received` whose notification
        // never comes is the real case): each look leaves it alone for half that, not for one processing-after.
        String old = createPayment(unique("bk"), "pm_card_ok");
        queries.update("update payment_attempts set started_at = now() - interval '2 hours' where payment_id = $1",
                old);
        queries.update("update payments set changed_at = now() - interval '2 hours' where id = $1", old);
        String recent = createPayment(unique("bk"), "pm_card_ok");

        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> leaseSecondsLeft(old) > 0
                && leaseSecondsLeft(recent) > 0);
        assertThat(leaseSecondsLeft(old)).isBetween(3_000.0, 3_600.0);
        assertThat(leaseSecondsLeft(recent)).isLessThanOrEqualTo(2.0);
        assertThat(statusOf(old)).isEqualTo("PROCESSING");
    }

    private double leaseSecondsLeft(String paymentId) {
        return db.sql("select coalesce(max(extract(epoch from claimed_until - now())), -1)::float8 from work_claims"
                        + " where kind = 'reconcile' and item_id = $1").bind(0, paymentId)
                .map(row -> row.get(0, Double.class)).one().block(Duration.ofSeconds(10));
    }
}
