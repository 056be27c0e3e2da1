package com.payorch.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.payorch.confirmations.ConfirmationFaults;
import com.payorch.events.Event;
import com.payorch.testsupport.MailApiTest;
import com.payorch.testsupport.OutboxApiTest.EventRow;
import com.payorch.testsupport.TestMailServer;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

class OutboxRelayIT extends MailApiTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Autowired
    private ConfirmationFaults faults;

    @Autowired
    private MeterRegistry meters;

    @Autowired
    private OutboxMetrics metrics;

    @Test
    void aFailedDeliveryBacksOffExponentiallyAndIsRetried() {
        String booking = unique("bk");
        String email = unique("guest") + "@example.com";
        String payment = createPaymentWithEmail(booking, email);
        double failuresBefore = deliveries("booking.activated", "failure");
        faults.failNextBeforeSending();
        faults.failNextBeforeSending();

        Event activated = appendBookingActivated(payment, booking);

        // After two failures: 1 s, then 2 s of backoff (the defaults), so the third attempt is >= 3 s after creation.
        EventRow failedTwice = await().atMost(WAIT).until(() -> eventRow(activated.id()),
                row -> row.attempts() == 2 && !row.claimed());
        assertThat(failedTwice.dispatched()).isFalse();
        assertThat(failedTwice.backingOff()).isTrue();
        assertThat(failedTwice.nextAttemptSecondsAfterCreation()).isGreaterThanOrEqualTo(3.0);
        assertThat(failedTwice.lastError()).isEqualTo("IllegalStateException: simulated failure before sending");
        assertThat(deliveries("booking.activated", "failure") - failuresBefore).isEqualTo(2);

        await().atMost(WAIT).until(() -> eventRow(activated.id()).dispatched());
        assertThat(eventRow(activated.id()).attempts()).isEqualTo(3);
        assertThat(TestMailServer.messagesTo(email)).hasSize(1);
        assertThat(confirmationsSent(booking)).isEqualTo(1);
    }

    @Test
    void eventsWithoutConsumerAreDispatchedOnce() {
        String booking = unique("bk");
        String payment = createPaymentWithEmail(booking, null);
        List<String> ids = events.find("demo", payment, null, null).map(Event::id).collectList().block(WAIT);
        assertThat(ids).hasSize(2);   // payment.created, payment.processing

        await().atMost(WAIT).until(() -> ids.stream().allMatch(id -> eventRow(id).dispatched()));
        assertThat(ids).allSatisfy(id -> {
            assertThat(eventRow(id).attempts()).isEqualTo(1);
            assertThat(eventRow(id).lastError()).isNull();
        });
        assertThat(deliveries("payment.created", "success")).isPositive();
    }

    @Test
    void theBacklogGaugeShowsUndispatchedEvents() {
        metrics.refreshBacklog().block(WAIT);

        double backlog = meters.get("payments.outbox.backlog").gauge().value();
        assertThat(backlog).isGreaterThanOrEqualTo(0)
                .isLessThanOrEqualTo(count("select count(*) from events") + 0.0);
    }

    private double deliveries(String type, String result) {
        var counter = meters.find("payments.outbox.deliveries").tag("type", type).tag("result", result).counter();
        return counter == null ? 0 : counter.count();
    }
}
