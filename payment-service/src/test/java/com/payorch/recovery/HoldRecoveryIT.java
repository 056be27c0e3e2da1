package com.payorch.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.payorch.gateway.GatewayException;
import com.payorch.payments.IdempotentPaymentFlow;
import com.payorch.testsupport.ApiTest;
import com.payorch.testsupport.OwnSchema;
import com.payorch.testsupport.SandboxFaults;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;

/**
 * A hold's capture or cancel whose answer was lost is sent again by recovery, with the same connector key, and
 * happens once at the connector. The sandbox settles its captures by webhook a few seconds later, so the resend
 * comes first.
 */
@TestPropertySource(properties = {
        "payments.recovery.interval=PT0.2S",
        "payments.recovery.pending-after=PT0.5S",
        "payments.gateway.sandbox.webhooks=auto",
        "payments.gateway.sandbox.webhook-delay=PT3S"})
@OwnSchema("hold_recovery_tests")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class HoldRecoveryIT extends ApiTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @Autowired
    IdempotentPaymentFlow flow;

    @Autowired
    SandboxFaults faults;

    private Holds holds;

    @BeforeEach
    void holds() {
        holds = new Holds(flow, queries);
    }

    @Test
    void aCaptureWhoseAnswerWasLostIsSentAgainWithItsKeyAndCapturedOnce() {
        String booking = unique("bk");
        String paymentId = authorised(booking);

        faults.loseNextCaptureResponse();
        assertThatThrownBy(() -> holds.capture("demo", paymentId).block(WAIT)).isInstanceOf(GatewayException.class);
        assertThat(statusOf(paymentId)).isEqualTo("CAPTURING");

        Awaitility.await().atMost(WAIT).until(() -> faults.captureKeysSent(paymentId).size() >= 2);
        assertThat(faults.captureKeysSent(paymentId)).containsOnly(paymentId + "-capture-1");
        Awaitility.await().atMost(WAIT).until(() -> "COMPLETED".equals(statusOf(paymentId)));

        assertThat(count("select count(*) from payments where id = $1 and amount_captured = $2 and captures = 1",
                paymentId, Holds.AMOUNT)).isEqualTo(1);
        assertThat(count("select count(*) from payment_transitions where payment_id = $1 and event = 'CAPTURE'",
                paymentId)).isEqualTo(1);
        assertThat(count("select count(*) from payment_transitions where payment_id = $1 and event = 'SUCCEED'",
                paymentId)).isEqualTo(1);
        assertThat(count("select count(*) from events where booking_id = $1 and type = 'booking.activated'", booking))
                .isEqualTo(1);
        assertThat(count("select count(*) from events where payment_id = $1 and type = 'payment.completed'",
                paymentId)).isEqualTo(1);
    }

    @Test
    void aCancelWhoseAnswerWasLostIsSentAgainWithItsKeyAndTheHoldCancelledOnce() {
        String booking = unique("bk");
        String paymentId = authorised(booking);

        // The sandbox's own payment.cancelled webhook is lost too (it owes none for this charge): only recovery's
        // resend can settle the payment, which is what this test is about.
        db.sql("update sandbox_charges set webhooks_due = false where payment_id = $1").bind(0, paymentId)
                .fetch().rowsUpdated().block(WAIT);
        faults.loseNextCancelResponse();
        assertThatThrownBy(() -> holds.cancel("demo", paymentId).block(WAIT)).isInstanceOf(GatewayException.class);
        assertThat(count("select count(*) from payments where id = $1 and status = 'AUTHORIZED'"
                + " and cancel_requested_at is not null", paymentId)).isEqualTo(1);

        Awaitility.await().atMost(WAIT).until(() -> "CANCELLED".equals(statusOf(paymentId)));

        assertThat(faults.cancelKeysSent(paymentId)).hasSizeGreaterThanOrEqualTo(2)
                .containsOnly(paymentId + "-cancel");
        assertThat(faults.captureKeysSent(paymentId)).isEmpty();
        assertThat(count("select count(*) from payment_transitions where payment_id = $1 and event = 'CANCEL'",
                paymentId)).isEqualTo(1);
        Awaitility.await().atMost(WAIT).until(() -> count(
                "select count(*) from events where booking_id = $1 and type = 'booking.cancelled'", booking) == 1);
        assertThat(count("select count(*) from events where payment_id = $1 and type = 'payment.cancelled'",
                paymentId)).isEqualTo(1);
    }

    private String authorised(String booking) {
        String paymentId = holds.place("demo", booking, "pm_card_ok");
        Awaitility.await().atMost(WAIT).until(() -> "AUTHORIZED".equals(statusOf(paymentId)));
        return paymentId;
    }
}
