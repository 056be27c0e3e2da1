package com.payorch.confirmations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.payorch.events.Event;
import com.payorch.testsupport.OutboxApiTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** The default configuration has no mail server: the confirmation goes to the log, and that counts as sent. */
class LoggedConfirmationIT extends OutboxApiTest {

    private final Logger mailerLog = (Logger) LoggerFactory.getLogger(ConfirmationMailer.class);
    private final ListAppender<ILoggingEvent> logged = new ListAppender<>();

    @BeforeEach
    void captureMailerLog() {
        logged.start();
        mailerLog.addAppender(logged);
    }

    @AfterEach
    void stopCapturing() {
        mailerLog.detachAppender(logged);
    }

    @Test
    void withoutMailServerTheMessageIsLoggedAndRecorded() {
        String booking = unique("bk");
        String email = unique("guest") + "@example.com";
        String payment = createPaymentWithEmail(booking, email);

        Event activated = appendBookingActivated(payment, booking);

        await().atMost(Duration.ofSeconds(10)).until(() -> eventRow(activated.id()).dispatched());
        assertThat(confirmationsSent(booking)).isEqualTo(1);
        List<String> lines = linesAbout(activated.id());
        assertThat(lines).hasSize(1);
        assertThat(lines.get(0))
                .contains("No mail server configured", booking, payment, "merchant demo", "12000 JPY",
                        "<" + activated.id() + "@payorch.local>", email.charAt(0) + "***@example.com")
                .doesNotContain(email);
    }

    private List<String> linesAbout(String eventId) {
        List<ILoggingEvent> copy;
        synchronized (logged) {   // the relay appends from its own thread
            copy = new ArrayList<>(logged.list);
        }
        return copy.stream().map(ILoggingEvent::getFormattedMessage).filter(line -> line.contains(eventId)).toList();
    }
}
