package com.payorch.confirmations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.payorch.events.Event;
import com.payorch.events.EventType;
import com.payorch.support.Ids;
import com.payorch.testsupport.MailApiTest;
import com.payorch.testsupport.TestMailServer;
import jakarta.mail.internet.MimeMessage;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/** booking.activated → one e-mail to the customer (real SMTP) and one booking.confirmation_sent, whatever happens. */
class BookingConfirmationIT extends MailApiTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Autowired
    private ConfirmationFaults faults;

    @Autowired
    private BookingConfirmationConsumer consumer;

    @Test
    void sendsOneEmailAndRecordsItOnce() throws Exception {
        String booking = unique("bk");
        String email = unique("guest") + "@example.com";
        String payment = createPaymentWithEmail(booking, email);

        Event activated = appendBookingActivated(payment, booking);

        await().atMost(WAIT).until(() -> eventRow(activated.id()).dispatched());
        List<MimeMessage> mails = TestMailServer.messagesTo(email);
        assertThat(mails).hasSize(1);
        MimeMessage mail = mails.get(0);
        assertThat(mail.getHeader("Message-ID")).containsExactly("<" + activated.id() + "@payorch.local>");
        assertThat(mail.getSubject()).contains(booking).contains("12000 JPY");
        assertThat(((String) mail.getContent())).contains(booking).contains("12000 JPY").contains(payment);

        client.get().uri("/v1/events?type=booking.confirmation_sent&bookingId=" + booking)
                .header("Authorization", "Bearer " + DEMO_KEY).exchange()
                .expectStatus().isOk()
                .expectBody()
                .jsonPath("$.data.length()").isEqualTo(1)
                .jsonPath("$.data[0].paymentId").isEqualTo(payment)
                .jsonPath("$.data[0].data.bookingId").isEqualTo(booking)
                .jsonPath("$.data[0].data.paymentId").isEqualTo(payment)
                .jsonPath("$.data[0].data.messageId").isEqualTo("<" + activated.id() + "@payorch.local>")
                .jsonPath("$.data[0].data.recipient").isEqualTo(email);
        assertThat(eventRow(activated.id()).attempts()).isEqualTo(1);
    }

    @Test
    void aCrashAfterRecordingIsRedeliveredWithoutASecondEmail() {
        String booking = unique("bk");
        String email = unique("guest") + "@example.com";
        String payment = createPaymentWithEmail(booking, email);
        faults.failNextAfterRecording();

        Event activated = appendBookingActivated(payment, booking);

        await().atMost(WAIT).until(() -> eventRow(activated.id()).dispatched());
        assertThat(eventRow(activated.id()).attempts()).isGreaterThanOrEqualTo(2);
        assertThat(eventRow(activated.id()).lastError()).contains("simulated crash after recording");
        assertThat(TestMailServer.messagesTo(email)).hasSize(1);
        assertThat(confirmationsSent(booking)).isEqualTo(1);
    }

    @Test
    void withoutCustomerEmailNothingIsSentOrRecorded() {
        String booking = unique("bk");
        String payment = createPaymentWithEmail(booking, null);

        Event activated = appendBookingActivated(payment, booking);

        await().atMost(WAIT).until(() -> eventRow(activated.id()).dispatched());
        assertThat(confirmationsSent(booking)).isZero();
        assertThat(count("select count(*) from booking_confirmations where booking_id = $1", booking)).isZero();
        assertThat(Arrays.stream(TestMailServer.allMessages()).filter(mail -> subjectOf(mail).contains(booking)))
                .isEmpty();
    }

    @Test
    void racingDeliveriesOfOneEventSendOneEmail() {
        String booking = unique("bk");
        String email = unique("guest") + "@example.com";
        String payment = createPaymentWithEmail(booking, email);
        // Not stored: only the deliveries below see it, no relay.
        Event activated = new Event(Ids.event(), "demo", EventType.BOOKING_ACTIVATED, payment, booking,
                "{\"bookingId\":\"" + booking + "\",\"paymentId\":\"" + payment + "\"}", Instant.now());

        List<String> outcomes = Flux.range(0, 4)
                .flatMap(i -> consumer.deliver(activated).subscribeOn(Schedulers.parallel())
                        .thenReturn("delivered")
                        .onErrorResume(e -> Mono.just("failed: " + e.getMessage())))
                .collectList()
                .block(WAIT);

        assertThat(outcomes).contains("delivered");
        assertThat(outcomes).allSatisfy(outcome -> assertThat(outcome)
                .isIn("delivered", "failed: the confirmation of booking " + booking + " is being sent by another delivery"));
        assertThat(TestMailServer.messagesTo(email)).hasSize(1);
        assertThat(confirmationsSent(booking)).isEqualTo(1);

        consumer.deliver(activated).block(WAIT);   // a later redelivery: recognised, nothing sent
        assertThat(TestMailServer.messagesTo(email)).hasSize(1);
        assertThat(confirmationsSent(booking)).isEqualTo(1);
    }

    private static String subjectOf(MimeMessage mail) {
        try {
            return mail.getSubject();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
