package com.payorch.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.payments.IdempotentPaymentFlow;
import com.payorch.payments.PaymentQueries;
import com.payorch.testsupport.ApiTest;
import com.payorch.testsupport.OwnSchema;
import com.payorch.testsupport.SandboxFaults;
import com.payorch.jobs.PeriodicJob;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Schedulers;

/**
 * Contract v3, "Expiry": {@code expiry-margin} before an AUTHORIZED hold's authorisation lapses, its merchant's
 * {@code on-expiry} policy is applied, once. Holds here last two seconds and the policy applies in the last one; the
 * sandbox authorises, captures and delivers its own webhooks.
 */
@TestPropertySource(properties = {
        "payments.capture.authorization-validity=PT2S",
        "payments.capture.expiry-margin=PT1S",
        "payments.merchants.other.capture.on-expiry=capture",
        "payments.recovery.interval=PT0.2S",
        "payments.recovery.pending-after=PT1S",
        "payments.gateway.sandbox.webhooks=auto",
        "payments.gateway.sandbox.webhook-delay=PT0.2S"})
@OwnSchema("hold_expiry_tests")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class HoldExpiryIT extends ApiTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @Autowired
    IdempotentPaymentFlow flow;

    @Autowired
    PaymentQueries payments;

    @Autowired
    HoldExpiry expiry;

    @Autowired
    SandboxFaults faults;

    @Autowired
    MeterRegistry registry;

    @Autowired
    @Qualifier("holdExpiryJob")
    PeriodicJob expiryJob;

    private Holds holds;

    @BeforeEach
    void holds() {
        holds = new Holds(flow, queries);
    }

    @Test
    void theServicesPolicyCancelsAHoldAboutToLapseAndItsBookingOnce() {
        String booking = unique("bk");
        String paymentId = holds.place("demo", booking, "pm_card_ok");

        Awaitility.await().atMost(WAIT).until(() -> "CANCELLED".equals(statusOf(paymentId)));

        assertThat(count("select count(*) from payments where id = $1 and cancel_reason = $2 and amount_captured = 0",
                paymentId, HoldExpiry.CANCEL_REASON)).isEqualTo(1);
        assertThat(count("select count(*) from payment_transitions where payment_id = $1 and event = 'AUTHORIZE'",
                paymentId)).isEqualTo(1);
        assertThat(count("select count(*) from payment_transitions where payment_id = $1 and event = 'CANCEL'"
                + " and source = 'recovery' and source_id = $2", paymentId, StuckHolds.EXPIRY)).isEqualTo(1);
        assertThat(count("select count(*) from payment_transitions where payment_id = $1 and event = 'CAPTURE'",
                paymentId)).isZero();
        assertThat(faults.captureKeysSent(paymentId)).isEmpty();
        assertThat(faults.cancelKeysSent(paymentId)).containsExactly(paymentId + "-cancel");
        assertThat(count("select count(*) from events where booking_id = $1 and type = 'booking.activated'", booking))
                .isEqualTo(1);
        Awaitility.await().atMost(WAIT).until(() -> count(
                "select count(*) from events where booking_id = $1 and type = 'booking.cancelled'", booking) == 1);
        assertThat(count("select count(*) from events where payment_id = $1 and type = 'payment.cancelled'",
                paymentId)).isEqualTo(1);
        assertThat(queries.text("select status from bookings where id = $1", booking)).isEqualTo("CANCELLED");
        assertThat(registry.get("payments.holds.expiry.actions").tag("action", "cancel").counter().count())
                .isGreaterThanOrEqualTo(1);
        assertThat(registry.get("payments.holds.expiring").gauge().value()).isNotNaN().isGreaterThanOrEqualTo(0);
    }

    @Test
    void aMerchantsOwnPolicyCapturesAllOfAHoldAboutToLapse() {
        String booking = unique("bk");
        String paymentId = holds.place("other", booking, "pm_card_ok");

        Awaitility.await().atMost(WAIT).until(() -> "COMPLETED".equals(statusOf(paymentId)));

        assertThat(count("select count(*) from payments where id = $1 and amount_captured = amount and amount = $2"
                + " and captures = 1 and cancel_requested_at is null", paymentId, Holds.AMOUNT)).isEqualTo(1);
        assertThat(count("select count(*) from payment_transitions where payment_id = $1 and event = 'CAPTURE'"
                + " and source = 'recovery' and source_id = $2", paymentId, StuckHolds.EXPIRY)).isEqualTo(1);
        assertThat(faults.captureKeysSent(paymentId)).first().isEqualTo(paymentId + "-capture-1");
        assertThat(faults.captureKeysSent(paymentId)).containsOnly(paymentId + "-capture-1");
        assertThat(faults.cancelKeysSent(paymentId)).isEmpty();
        assertThat(count("select count(*) from events where booking_id = $1 and type = 'booking.activated'", booking))
                .isEqualTo(1);
        assertThat(count("select count(*) from events where booking_id = $1 and type = 'booking.cancelled'", booking))
                .isZero();
        assertThat(registry.get("payments.holds.expiry.actions").tag("action", "capture").counter().count())
                .isGreaterThanOrEqualTo(1);
    }

    @Test
    void aCaptureOnExpiryThatFailedIsNotStartedAgainAndTheHoldNeedsAttention() {
        String booking = unique("bk");
        String paymentId = holds.place("other", booking, "pm_card_capture_fails");

        Awaitility.await().atMost(WAIT).until(() -> count("select count(*) from payment_attempts a"
                + " join payments p on p.id = a.payment_id and p.attempt = a.number"
                + " where p.id = $1 and p.status = 'AUTHORIZED' and a.attention_reason like $2", paymentId,
                HoldExpiry.CAPTURE_ON_EXPIRY_FAILED + "%") == 1);

        assertThat(count("select count(*) from payment_transitions where payment_id = $1 and event = 'CAPTURE_FAIL'",
                paymentId)).isEqualTo(1);
        assertThat(count("select count(*) from payments where id = $1 and failure_reason is not null"
                + " and amount_captured = 0 and captures = 1", paymentId)).isEqualTo(1);
        // Three more runs of the job: still the one capture, and no cancel either.
        long transitions = count("select count(*) from payment_transitions where payment_id = $1", paymentId);
        long runs = expiryJob.completedRuns();
        Awaitility.await().atMost(WAIT).until(() -> expiryJob.completedRuns() >= runs + 3);
        assertThat(faults.captureKeysSent(paymentId)).containsOnly(paymentId + "-capture-1");
        assertThat(faults.cancelKeysSent(paymentId)).isEmpty();
        assertThat(count("select count(*) from payment_transitions where payment_id = $1", paymentId))
                .isEqualTo(transitions);
        assertThat(statusOf(paymentId)).isEqualTo("AUTHORIZED");
    }

    @Test
    void expiryRunsRacingEachOtherTakeOneActionPerHold() {
        String capturedBooking = unique("bk");
        String captured = holds.place("other", capturedBooking, "pm_card_ok");
        String cancelledBooking = unique("bk");
        String cancelled = holds.place("demo", cancelledBooking, "pm_card_ok");
        Awaitility.await().atMost(WAIT).until(() -> !"PENDING".equals(statusOf(captured))
                && !"PROCESSING".equals(statusOf(captured)) && !"PENDING".equals(statusOf(cancelled))
                && !"PROCESSING".equals(statusOf(cancelled)));

        // Four actions on each at once (past the leases a job run takes), next to the job's own runs.
        Flux.range(0, 8)
                .flatMap(i -> payments.findAnyMerchant(i % 2 == 0 ? captured : cancelled)
                        .flatMap(payment -> expiry.act(payment))
                        .subscribeOn(Schedulers.parallel()))
                .then()
                .block(WAIT);

        Awaitility.await().atMost(WAIT).until(() -> "COMPLETED".equals(statusOf(captured))
                && "CANCELLED".equals(statusOf(cancelled)));
        assertThat(count("select count(*) from payment_transitions where payment_id = $1 and event = 'CAPTURE'",
                captured)).isEqualTo(1);
        assertThat(count("select count(*) from payments where id = $1 and captures = 1 and amount_captured = amount",
                captured)).isEqualTo(1);
        assertThat(faults.captureKeysSent(captured)).containsOnly(captured + "-capture-1");
        assertThat(count("select count(*) from payment_transitions where payment_id = $1 and event = 'CANCEL'",
                cancelled)).isEqualTo(1);
        assertThat(faults.cancelKeysSent(cancelled)).containsOnly(cancelled + "-cancel");
        assertThat(faults.captureKeysSent(cancelled)).isEmpty();
        Awaitility.await().atMost(WAIT).until(() -> count(
                "select count(*) from events where booking_id = $1 and type = 'booking.cancelled'",
                cancelledBooking) == 1);
        assertThat(count("select count(*) from events where booking_id = $1 and type = 'booking.activated'",
                capturedBooking)).isEqualTo(1);
    }
}
