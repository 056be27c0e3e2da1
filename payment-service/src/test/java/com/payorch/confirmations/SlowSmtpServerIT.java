package com.payorch.confirmations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.payorch.events.Event;
import com.payorch.testsupport.FakeSmtpServer;
import com.payorch.testsupport.OutboxApiTest;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

/**
 * A mail server that takes longer to accept a message than the relay waits for a delivery: the relay stops waiting
 * and tries the event again later, but the send that is under way still ends in the confirmation being recorded,
 * so the customer gets one e-mail, however many more rounds the relay makes. Own schema: no other context's relay
 * takes these events.
 */
@TestPropertySource(properties = {
        "spring.mail.host=127.0.0.1",
        "payments.outbox.delivery-timeout=PT1S",
        "payments.outbox.lease=PT5S",
        "payments.outbox.initial-backoff=PT0.2S",
        "payments.outbox.max-backoff=PT0.5S",
        // Longer than the slow send (3 s), far shorter than the default, so a second send would show here.
        "payments.confirmations.claim-timeout=PT5S",
        "spring.r2dbc.properties.schema=" + SlowSmtpServerIT.SCHEMA,
        "spring.flyway.schemas=" + SlowSmtpServerIT.SCHEMA,
        "spring.flyway.default-schema=" + SlowSmtpServerIT.SCHEMA})
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class SlowSmtpServerIT extends OutboxApiTest {

    static final String SCHEMA = "slow_smtp_tests";
    private static final FakeSmtpServer smtp = FakeSmtpServer.slow(Duration.ofSeconds(3));

    @DynamicPropertySource
    static void mailServer(DynamicPropertyRegistry registry) {
        registry.add("spring.mail.port", smtp::port);
    }

    @AfterAll
    static void closeMailServer() {
        smtp.close();
    }

    @Test
    void aSendThatOutlastsTheRelaysTimeoutIsRecordedAndNotRepeated() {
        String booking = unique("bk");
        String payment = createPaymentWithEmail(booking, unique("guest") + "@example.com");

        Event activated = appendBookingActivated(payment, booking);

        await().atMost(Duration.ofSeconds(20)).until(() -> eventRow(activated.id()).dispatched());
        EventRow row = eventRow(activated.id());
        assertThat(row.attempts()).as("the relay stopped waiting at least once").isGreaterThanOrEqualTo(2);
        assertThat(smtp.acceptedContaining(booking)).isEqualTo(1);
        assertThat(confirmationsSent(booking)).isEqualTo(1);
        // More relay rounds, claim expiries and backoffs fit in these seconds: still one e-mail, one event.
        await().during(Duration.ofSeconds(8)).atMost(Duration.ofSeconds(12)).until(() ->
                smtp.acceptedContaining(booking) == 1 && smtp.messagesReceived() == 1
                        && confirmationsSent(booking) == 1 && eventRow(activated.id()).dispatched());
    }
}
