package com.payorch.endtoend;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.testsupport.ApiTest;
import com.payorch.testsupport.OwnSchema;
import com.payorch.testsupport.TestMailServer;
import jakarta.mail.internet.MimeMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

/**
 * The whole life cycle as a user of the defaults sees it: the sandbox delivers its signed webhooks to this
 * service over HTTP (each twice, outcome first), the payment completes or fails, the booking is activated once
 * and one confirmation e-mail reaches a real SMTP server. Its own schema keeps other test contexts' pollers away.
 */
@TestPropertySource(properties = {
        "payments.gateway.sandbox.webhooks=auto",
        "payments.gateway.sandbox.webhook-delay=PT0.2S",
        "payments.gateway.sandbox.deliver-twice=true",
        "payments.gateway.sandbox.reverse-order=true",
        // refunds here are settled by the sandbox's refund webhooks, not by the reconciler
        "payments.recovery.refund-pending-after=PT10M",
        "spring.mail.host=127.0.0.1"})
@OwnSchema("end_to_end_tests")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class AutoWebhooksEndToEndIT extends ApiTest {

    @DynamicPropertySource
    static void mailServer(DynamicPropertyRegistry registry) {
        registry.add("spring.mail.port", TestMailServer::port);
    }

    @Test
    void aCardThatWorksCompletesActivatesTheBookingOnceAndSendsOneConfirmation() {
        String booking = unique("bk");
        String email = "guest+" + booking + "@example.com";
        String body = """
                {"bookingId": "%s", "amount": 12000, "currency": "JPY", "paymentMethod": "pm_card_ok",
                 "customerEmail": "%s"}""".formatted(booking, email);
        String paymentId = createPaymentFromBody(body);

        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> "COMPLETED".equals(statusOf(paymentId)));
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> count(
                "select count(*) from events where booking_id = $1 and type = 'booking.confirmation_sent'", booking) == 1);
        Awaitility.await().atMost(Duration.ofSeconds(30))
                .until(() -> count("select count(*) from webhook_receipts where payment_id = $1", paymentId) == 2);

        client.get().uri("/v1/bookings/" + booking).header("Authorization", "Bearer " + DEMO_KEY).exchange()
                .expectBody().jsonPath("$.status").isEqualTo("ACTIVE").jsonPath("$.paymentId").isEqualTo(paymentId);
        assertThat(TestMailServer.messagesTo(email)).hasSize(1);
        assertThat(count("select count(*) from payment_transitions where payment_id = $1", paymentId)).isEqualTo(3);
        assertThat(count("select count(*) from webhook_receipts where payment_id = $1 and outcome = 'applied'",
                paymentId)).isEqualTo(1);
        assertThat(count("select count(*) from webhook_receipts where payment_id = $1 and outcome = 'ignored'",
                paymentId)).isEqualTo(1);
        assertThat(count("select count(*) from events where booking_id = $1 and type = 'booking.activated'", booking))
                .isEqualTo(1);
    }

    @Test
    void aFullRefundIsSettledByTheSandboxWebhookCancelsTheBookingOnceAndSendsOneCancellationEmail()
            throws Exception {
        String booking = unique("bk");
        String email = "guest+" + booking + "@example.com";
        String paymentId = createPaymentFromBody("""
                {"bookingId": "%s", "amount": 12000, "currency": "JPY", "paymentMethod": "pm_card_ok",
                 "customerEmail": "%s"}""".formatted(booking, email));
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> "COMPLETED".equals(statusOf(paymentId)));

        byte[] refund = client.post().uri("/v1/payments/" + paymentId + "/refunds")
                .header("Authorization", "Bearer " + DEMO_KEY).header("Idempotency-Key", unique("rk"))
                .header("Content-Type", "application/json").bodyValue("{\"reason\": \"requested_by_customer\"}")
                .exchange().expectStatus().isCreated()
                .expectBody().returnResult().getResponseBody();
        String refundId = new tools.jackson.databind.json.JsonMapper().readTree(refund).path("id").asText();
        assertThat(refundId).startsWith("re_");

        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> count("select count(*) from refunds"
                + " where id = $1 and status = 'SUCCEEDED'", refundId) == 1);
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> TestMailServer.messagesTo(email).size() == 2);
        // the sandbox's refund.succeeded webhook (delivered twice) settled it: applied once, then a duplicate
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> count("select count(*) from webhook_receipts"
                + " where payment_id = $1 and type = 'refund.succeeded'", paymentId) == 1);
        assertThat(count("select count(*) from webhook_receipts where payment_id = $1 and type = 'refund.succeeded'"
                + " and outcome = 'applied'", paymentId)).isEqualTo(1);
        client.get().uri("/v1/bookings/" + booking).header("Authorization", "Bearer " + DEMO_KEY).exchange()
                .expectBody().jsonPath("$.status").isEqualTo("CANCELLED");
        client.get().uri("/v1/payments/" + paymentId).header("Authorization", "Bearer " + DEMO_KEY).exchange()
                .expectBody().jsonPath("$.amountRefunded").isEqualTo(12000);
        assertThat(count("select count(*) from events where booking_id = $1 and type = 'booking.cancelled'", booking))
                .isEqualTo(1);
        assertThat(count("select count(*) from booking_cancellation_emails where booking_id = $1"
                + " and sent_at is not null", booking)).isEqualTo(1);
        List<String> subjects = new ArrayList<>();
        for (MimeMessage message : TestMailServer.messagesTo(email)) {
            subjects.add(message.getSubject());
        }
        assertThat(subjects).hasSize(2).anySatisfy(subject -> assertThat(subject).contains("cancelled"))
                .anySatisfy(subject -> assertThat(subject).contains("confirmed"));
    }

    @Test
    void aDeclinedCardFailsWithItsReasonAndActivatesNothing() {
        String booking = unique("bk");
        String paymentId = createPayment(booking, "pm_card_declined");

        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> "FAILED".equals(statusOf(paymentId)));
        client.get().uri("/v1/payments/" + paymentId).header("Authorization", "Bearer " + DEMO_KEY).exchange()
                .expectBody().jsonPath("$.failureReason").isEqualTo("card_declined");
        client.get().uri("/v1/bookings/" + booking).header("Authorization", "Bearer " + DEMO_KEY).exchange()
                .expectBody().jsonPath("$.status").isEqualTo("AWAITING_PAYMENT");
    }
}
