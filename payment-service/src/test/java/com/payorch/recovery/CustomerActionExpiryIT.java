package com.payorch.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.payments.CustomerAction;
import com.payorch.payments.PaymentQueries;
import com.payorch.testsupport.ApiTest;
import com.payorch.testsupport.OwnSchema;
import com.payorch.testsupport.SandboxFaults;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Schedulers;

/**
 * Contract v3, "customer action", expiry: a payment REQUIRES_ACTION longer than
 * {@code payments.customer-action.expires-after} has its attempt cancelled at the connector and FAILS
 * {@code authentication_expired} only once the connector confirms; a customer who paid just before ends COMPLETED,
 * never also FAILED. The sandbox does not settle its charges here (its delay is an hour), so each payment is put in
 * REQUIRES_ACTION by the test, against the sandbox charge its submit made, as a connector asking for 3-D Secure would.
 */
@TestPropertySource(properties = {
        "payments.customer-action.expires-after=PT1M",
        "payments.recovery.interval=PT0.2S",
        "payments.recovery.pending-after=PT1S",
        "payments.gateway.sandbox.webhook-delay=PT1H"})
@OwnSchema("customer_action_expiry_tests")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class CustomerActionExpiryIT extends ApiTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @Autowired
    CustomerActionExpiry expiry;

    @Autowired
    PaymentQueries payments;

    @Autowired
    SandboxFaults faults;

    @Autowired
    MeterRegistry registry;

    @Test
    void aPaymentPastExpiryIsCancelledAtTheConnectorAndFailsAuthenticationExpiredOnceConfirmed() {
        String booking = unique("bk");
        String paymentId = waitingForCustomer(booking, "manual", Duration.ofMinutes(2));

        Awaitility.await().atMost(WAIT).until(() -> "FAILED".equals(statusOf(paymentId)));

        assertThat(queries.text("select failure_reason from payments where id = $1", paymentId))
                .isEqualTo(CustomerAction.AUTHENTICATION_EXPIRED);
        assertThat(queries.text("select status from sandbox_charges where payment_id = $1", paymentId))
                .isEqualTo("cancelled");
        assertThat(faults.cancelKeysSent(paymentId)).first().isEqualTo(paymentId + "-cancel");
        assertThat(faults.cancelKeysSent(paymentId)).containsOnly(paymentId + "-cancel");
        assertThat(count("select count(*) from payments where id = $1 and cancel_reason = $2", paymentId,
                CustomerAction.AUTHENTICATION_EXPIRED)).isEqualTo(1);
        assertThat(count("select count(*) from payment_transitions where payment_id = $1 and event = 'FAIL'"
                + " and from_status = 'REQUIRES_ACTION' and source = 'recovery' and source_id = $2", paymentId,
                CustomerActionExpiry.KIND)).isEqualTo(1);
        assertThat(count("select count(*) from events where payment_id = $1 and type = 'payment.failed'", paymentId))
                .isEqualTo(1);
        assertThat(count("select count(*) from events where payment_id = $1 and type = 'payment.cancelled'",
                paymentId)).isZero();
        assertThat(count("select count(*) from events where payment_id = $1 and type = 'payment.completed'",
                paymentId)).isZero();
        assertThat(registry.get("payments.customer.actions.expired").counter().count()).isGreaterThanOrEqualTo(1);

        // The connector's own notification of the cancel, arriving later, changes nothing.
        sendWebhook(unique("wh"), webhookBody("payment.cancelled", paymentId, 12000, "JPY")).expectStatus().isOk();
        assertThat(count("select count(*) from events where payment_id = $1 and type = 'payment.failed'", paymentId))
                .isEqualTo(1);
        assertThat(statusOf(paymentId)).isEqualTo("FAILED");
    }

    @Test
    void aSuccessReportedAfterTheExpiryFailedThePaymentIsAnOrphanedChargeGivenBack() {
        String booking = unique("bk");
        String paymentId = waitingForCustomer(booking, "manual", Duration.ofMinutes(2));
        Awaitility.await().atMost(WAIT).until(() -> "FAILED".equals(statusOf(paymentId)));

        sendWebhook(unique("wh"), webhookBody("payment.succeeded", paymentId, 12000, "JPY")).expectStatus().isOk();

        assertThat(statusOf(paymentId)).isEqualTo("FAILED");
        assertThat(count("select count(*) from events where payment_id = $1 and type = 'charge.orphaned'", paymentId))
                .isEqualTo(1);
        assertThat(count("select count(*) from refunds where payment_id = $1 and reason = 'orphaned_charge'",
                paymentId)).isEqualTo(1);
        assertThat(count("select count(*) from events where payment_id = $1 and type = 'payment.completed'",
                paymentId)).isZero();
    }

    @Test
    void aCustomerWhoPaidJustBeforeTheExpiryHasACompletedPaymentNeverAlsoAFailedOne() {
        String booking = unique("bk");
        String paymentId = createWaiting(booking, "automatic");
        // The customer approved at the connector; its notification has not arrived when the expiry looks.
        queries.update("update sandbox_charges set status = 'succeeded' where payment_id = $1", paymentId);
        requireAction(paymentId, Duration.ofMinutes(2));

        Awaitility.await().atMost(WAIT).until(() -> "COMPLETED".equals(statusOf(paymentId)));

        // The sandbox refused to cancel a charge that succeeded; the job's look-up found the success.
        assertThat(faults.cancelKeysSent(paymentId)).contains(paymentId + "-cancel");
        assertThat(count("select count(*) from payment_transitions where payment_id = $1 and to_status = 'FAILED'",
                paymentId)).isZero();
        assertThat(count("select count(*) from events where payment_id = $1 and type = 'payment.completed'",
                paymentId)).isEqualTo(1);
        assertThat(count("select count(*) from events where payment_id = $1 and type in ('payment.failed',"
                + " 'charge.orphaned')", paymentId)).isZero();
        assertThat(count("select count(*) from refunds where payment_id = $1", paymentId)).isZero();
        assertThat(count("select count(*) from events where booking_id = $1 and type = 'booking.activated'", booking))
                .isEqualTo(1);
    }

    @Test
    void aPaymentNotYetPastExpiryIsLeftWaitingAndCountedAsWaiting() {
        String booking = unique("bk");
        String paymentId = waitingForCustomer(booking, "automatic", Duration.ofSeconds(5));

        Awaitility.await().atMost(WAIT).until(() -> registry.get("payments.customer.actions.waiting").gauge()
                .value() >= 1);

        assertThat(statusOf(paymentId)).isEqualTo("REQUIRES_ACTION");
        assertThat(faults.cancelKeysSent(paymentId)).isEmpty();
        assertThat(count("select count(*) from payments where id = $1 and cancel_requested_at is null", paymentId))
                .isEqualTo(1);
    }

    @Test
    void expiriesRacingEachOtherFailThePaymentOnceWithOneEvent() {
        String booking = unique("bk");
        String paymentId = createWaiting(booking, "manual");
        // Past expiry, with the job's own runs going on: eight more expiries of it at once, past any lease.
        requireAction(paymentId, Duration.ofMinutes(2));
        Flux.range(0, 8)
                .flatMap(i -> payments.findAnyMerchant(paymentId)
                        .flatMap(payment -> expiry.expire(payment))
                        .onErrorResume(e -> reactor.core.publisher.Mono.empty())
                        .subscribeOn(Schedulers.parallel()))
                .then()
                .block(WAIT);

        Awaitility.await().atMost(WAIT).until(() -> "FAILED".equals(statusOf(paymentId)));
        assertThat(count("select count(*) from payment_transitions where payment_id = $1 and to_status = 'FAILED'",
                paymentId)).isEqualTo(1);
        assertThat(count("select count(*) from events where payment_id = $1 and type = 'payment.failed'", paymentId))
                .isEqualTo(1);
        assertThat(faults.cancelKeysSent(paymentId)).containsOnly(paymentId + "-cancel");
        assertThat(queries.text("select failure_reason from payments where id = $1", paymentId))
                .isEqualTo(CustomerAction.AUTHENTICATION_EXPIRED);
    }

    /** A payment created through the API and put in REQUIRES_ACTION since {@code ago}: its id. */
    private String waitingForCustomer(String booking, String captureMethod, Duration ago) {
        String paymentId = createWaiting(booking, captureMethod);
        requireAction(paymentId, ago);
        return paymentId;
    }

    private String createWaiting(String booking, String captureMethod) {
        String paymentId = createPaymentFromBody("""
                {"bookingId": "%s", "amount": 12000, "currency": "JPY", "paymentMethod": "pm_card_ok",
                 "customerEmail": "guest@example.com", "description": "Room 101", "captureMethod": "%s",
                 "returnUrl": "https://shop.example/back"}""".formatted(booking, captureMethod));
        Awaitility.await().atMost(WAIT).until(() -> "PROCESSING".equals(statusOf(paymentId)));
        return paymentId;
    }

    /** What the connector's REQUIRES_ACTION answer writes (the REQUIRE_ACTION transition), dated {@code ago}. */
    private void requireAction(String paymentId, Duration ago) {
        assertThat(queries.update("""
                update payments
                set status = 'REQUIRES_ACTION', version = version + 1,
                    next_action_url = 'https://sandbox.example/authenticate/' || id,
                    action_required_at = now() - make_interval(secs => $2), changed_at = now()
                where id = $1 and status = 'PROCESSING'
                """, paymentId, (double) ago.toSeconds())).isEqualTo(1);
        queries.update("update payment_attempts set status = 'REQUIRES_ACTION' where payment_id = $1", paymentId);
    }
}
