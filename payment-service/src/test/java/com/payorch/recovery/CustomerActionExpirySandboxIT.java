package com.payorch.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.payments.CustomerAction;
import com.payorch.testsupport.ApiTest;
import com.payorch.testsupport.OwnSchema;
import com.payorch.testsupport.SandboxFaults;
import com.payorch.jobs.PeriodicJob;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.http.MediaType;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;
import org.springframework.web.reactive.function.BodyInserters;

/**
 * The expiry end to end with the sandbox's 3-D Secure token: {@code pm_card_3ds} with a {@code returnUrl} waits for a
 * customer who never comes; two seconds later its charge is cancelled at the sandbox and the payment FAILS
 * {@code authentication_expired}, once, whether its confirmation comes in the cancel's answer or in the sandbox's own
 * notification that follows. A customer approving on the sandbox's page as the expiry comes ends one way only.
 */
@TestPropertySource(properties = {
        "payments.customer-action.expires-after=PT2S",
        "payments.recovery.interval=PT0.2S",
        "payments.recovery.pending-after=PT1S",
        "payments.gateway.sandbox.webhooks=auto",
        "payments.gateway.sandbox.webhook-delay=PT0.2S"})
@OwnSchema("customer_action_expiry_sandbox_tests")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class CustomerActionExpirySandboxIT extends ApiTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    private static final Pattern TOKEN = Pattern.compile("name=\"token\" value=\"([^\"]+)\"");

    @Autowired
    SandboxFaults faults;

    @Autowired
    @Qualifier("customerActionExpiryJob")
    PeriodicJob expiryJob;

    @Test
    void aCustomerWhoNeverAuthenticatesHasTheAttemptCancelledAndThePaymentFailedOnce() {
        assertExpired(createWaiting(unique("bk"), "automatic"));
    }

    @Test
    void aHoldWhoseCustomerNeverAuthenticatesFailsToo() {
        // Not CANCELLED: the merchant released nothing; the customer did not act.
        assertExpired(createWaiting(unique("bk"), "manual"));
    }

    @Test
    void aCustomerApprovingAsTheExpiryComesEndsCompletedOrFailedNeverBoth() {
        String booking = unique("bk");
        String paymentId = createWaiting(booking, "automatic");
        String path = "/sandbox/authenticate/" + latestChargeOf(paymentId);

        int answer = approve(path);

        if (answer == 303) {
            // The customer was in time: the sandbox's notification or the expiry's look-up completes it.
            Awaitility.await().atMost(WAIT).until(() -> "COMPLETED".equals(statusOf(paymentId)));
            assertThat(queries.text("select status from sandbox_charges where payment_id = $1", paymentId))
                    .isEqualTo("succeeded");
            assertThat(count("select count(*) from events where payment_id = $1 and type = 'payment.completed'",
                    paymentId)).isEqualTo(1);
            assertThat(count("select count(*) from events where booking_id = $1 and type = 'booking.activated'",
                    booking)).isEqualTo(1);
        } else {
            // The expiry's cancel came first: the page refuses, nothing is taken.
            assertThat(answer).isEqualTo(409);
            Awaitility.await().atMost(WAIT).until(() -> "FAILED".equals(statusOf(paymentId)));
            assertThat(queries.text("select status from sandbox_charges where payment_id = $1", paymentId))
                    .isEqualTo("cancelled");
        }
        // Past the expiry and a few more runs of the job: still the one end, never the other as well.
        long runs = expiryJob.completedRuns();
        Awaitility.await().atMost(WAIT).until(() -> expiryJob.completedRuns() >= runs + 5);
        assertThat(count("select count(*) from payment_transitions where payment_id = $1"
                + " and to_status in ('COMPLETED', 'FAILED')", paymentId)).isEqualTo(1);
        assertThat(count("select count(*) from events where payment_id = $1 and type in ('payment.completed',"
                + " 'payment.failed')", paymentId)).isEqualTo(1);
        assertThat(count("select count(*) from events where payment_id = $1 and type = 'charge.orphaned'",
                paymentId)).isZero();
    }

    /** The customer's Approve on the sandbox's page (its one-time token read from the page): the HTTP status. */
    private int approve(String path) {
        String page = client.get().uri(path).exchange().expectBody(String.class).returnResult().getResponseBody();
        Matcher token = TOKEN.matcher(page == null ? "" : page);
        if (!token.find()) {
            return 409; // the page of a charge already cancelled offers nothing to approve
        }
        return client.post().uri(path).contentType(MediaType.APPLICATION_FORM_URLENCODED)
                .body(BodyInserters.fromFormData("token", token.group(1)).with("decision", "approve"))
                .exchange().expectBody(String.class).returnResult().getStatus().value();
    }

    private void assertExpired(String paymentId) {
        Awaitility.await().atMost(WAIT).until(() -> "FAILED".equals(statusOf(paymentId)));

        assertThat(queries.text("select failure_reason from payments where id = $1", paymentId))
                .isEqualTo(CustomerAction.AUTHENTICATION_EXPIRED);
        assertThat(queries.text("select status from sandbox_charges where payment_id = $1", paymentId))
                .isEqualTo("cancelled");
        assertThat(faults.cancelKeysSent(paymentId)).first().isEqualTo(paymentId + "-cancel");
        assertThat(count("select count(*) from payment_transitions where payment_id = $1 and event = 'REQUIRE_ACTION'",
                paymentId)).isEqualTo(1);
        assertThat(count("select count(*) from payment_transitions where payment_id = $1 and to_status = 'FAILED'"
                + " and from_status = 'REQUIRES_ACTION'", paymentId)).isEqualTo(1);
        assertThat(count("select count(*) from events where payment_id = $1 and type = 'payment.requires_action'",
                paymentId)).isEqualTo(1);
        // The sandbox's notification of the cancel arrives too, and changes nothing.
        Awaitility.await().atMost(WAIT).until(() -> count("select count(*) from webhook_receipts r"
                + " where r.payment_id = $1 and r.type = 'payment.cancelled'", paymentId) == 1);
        assertThat(count("select count(*) from events where payment_id = $1 and type = 'payment.failed'", paymentId))
                .isEqualTo(1);
        assertThat(count("select count(*) from events where payment_id = $1 and type in ('payment.completed',"
                + " 'payment.cancelled', 'charge.orphaned')", paymentId)).isZero();
        assertThat(statusOf(paymentId)).isEqualTo("FAILED");
    }

    private String createWaiting(String booking, String captureMethod) {
        String paymentId = createPaymentFromBody("""
                {"bookingId": "%s", "amount": 12000, "currency": "JPY", "paymentMethod": "pm_card_3ds",
                 "customerEmail": "guest@example.com", "description": "Room 101", "captureMethod": "%s",
                 "returnUrl": "https://shop.example/back"}""".formatted(booking, captureMethod));
        // It waited for its customer (its page named) before the expiry took it.
        Awaitility.await().atMost(WAIT).until(() -> count("select count(*) from payment_transitions"
                + " where payment_id = $1 and to_status = 'REQUIRES_ACTION'", paymentId) == 1);
        return paymentId;
    }
}
