package com.payorch.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.testsupport.ApiTest;
import com.payorch.testsupport.ServiceInstances;
import com.payorch.testsupport.SignedWebhooks;
import com.payorch.testsupport.TestMailServer;
import com.payorch.testsupport.TestQueries;
import org.awaitility.Awaitility;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import reactor.core.publisher.Flux;

/**
 * Three service instances in one test run, sharing one database: duplicate client POSTs and duplicate gateway
 * webhooks spread across them still make one payment, one charge, one booking activation and one e-mail.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ThreeInstancesIT {

    private static final String SECRET = ApiTest.WEBHOOK_SECRET;

    private ServiceInstances instances;
    private TestQueries queries;

    @BeforeAll
    void startThreeInstances() {
        instances = ServiceInstances.start(3, "cluster_tests", List.of(
                "--payments.gateway.sandbox.webhook-secret=" + SECRET,
                "--spring.mail.host=127.0.0.1",
                "--spring.mail.port=" + TestMailServer.port()));
        queries = instances.queries();
    }

    @AfterAll
    void stopInstances() {
        instances.close();
    }

    @Test
    void duplicatePostsAndWebhooksAcrossInstancesMakeOnePaymentOneChargeOneActivation() {
        String booking = "bk_" + UUID.randomUUID().toString().substring(0, 12);
        String key = "key_" + UUID.randomUUID();
        String email = "guest+" + booking + "@example.com";
        String body = """
                {"bookingId": "%s", "amount": 5000, "currency": "USD", "paymentMethod": "pm_card_ok",
                 "customerEmail": "%s"}""".formatted(booking, email);

        List<Integer> statuses = instances.postPaymentConcurrently("sk_test_demo", key, body, 30);
        // 409 only for requests that arrive while the first one is still running: none when the first is quick.
        assertThat(statuses).isSubsetOf(201, 409).contains(201);
        assertThat(queries.count("select count(*) from payments where booking_id = $1", booking)).isEqualTo(1);
        String paymentId = queries.paymentOfBooking(booking);
        assertThat(queries.count("select count(*) from sandbox_charges where payment_id = $1", paymentId))
                .isEqualTo(1);

        String webhookId = "msg_" + UUID.randomUUID();
        String webhook = """
                {"type": "payment.succeeded", "data": {"paymentId": "%s", "chargeId": "%s", "amount": 5000,
                "currency": "USD"}}""".formatted(paymentId,
                queries.text("select id from sandbox_charges where payment_id = $1", paymentId));
        var headers = SignedWebhooks.sign(SECRET, webhookId, Instant.now(), webhook);
        List<String> outcomes = Flux.range(0, 30)
                .flatMap(i -> instances.client(i).post().uri("/v1/webhooks/sandbox")
                        .headers(h -> h.addAll(headers))
                        .header("Content-Type", "application/json")
                        .bodyValue(webhook)
                        .retrieve()
                        .bodyToMono(Map.class)
                        .map(answer -> (String) answer.get("status")), 30)
                .collectList()
                .block(Duration.ofSeconds(60));

        assertThat(outcomes).filteredOn("applied"::equals).hasSize(1);
        assertThat(outcomes).filteredOn("duplicate"::equals).hasSize(29);
        assertThat(queries.count(
                "select count(*) from payment_transitions where payment_id = $1 and event = 'SUCCEED'",
                paymentId)).isEqualTo(1);
        assertThat(queries.count("select count(*) from bookings where id = $1 and status = 'ACTIVE'", booking))
                .isEqualTo(1);
        assertThat(queries.count(
                "select count(*) from events where booking_id = $1 and type = 'booking.activated'", booking))
                .isEqualTo(1);

        // The three relays share the outbox: exactly one confirmation e-mail and one confirmation_sent event.
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> queries.count(
                "select count(*) from events where booking_id = $1 and type = 'booking.confirmation_sent'",
                booking) == 1);
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> TestMailServer.messagesTo(email).size() == 1);
        // booking.confirmation_sent is itself relayed on a later poll: every event of the booking ends dispatched.
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> queries.count(
                "select count(*) from events where booking_id = $1 and dispatched_at is null", booking) == 0);
        assertThat(TestMailServer.messagesTo(email)).hasSize(1);
        assertThat(queries.count(
                "select count(*) from events where booking_id = $1 and type = 'booking.confirmation_sent'",
                booking)).isEqualTo(1);
    }

    /**
     * 50 refunds with different keys on one payment, spread over the three instances at once (each also replayed):
     * the accepted ones never sum past the amount, a replay answers exactly what its key first answered, and the
     * refund of the rest cancels the booking exactly once, with one cancellation e-mail from the three relays.
     */
    @Test
    void fiftyParallelRefundsAcrossInstancesNeverExceedTheAmountAndTheBookingIsCancelledOnce() {
        String booking = "bk_" + UUID.randomUUID().toString().substring(0, 12);
        String email = "guest+" + booking + "@example.com";
        String created = instances.client(0).post().uri("/v1/payments")
                .header("Authorization", "Bearer sk_test_demo")
                .header("Idempotency-Key", "key_" + UUID.randomUUID())
                .header("Content-Type", "application/json")
                .bodyValue("""
                        {"bookingId": "%s", "amount": 5000, "currency": "USD", "paymentMethod": "pm_card_ok",
                         "customerEmail": "%s"}""".formatted(booking, email))
                .retrieve().toBodilessEntity().block(Duration.ofSeconds(30)).getHeaders().getLocation().toString();
        String paymentId = created.substring("/v1/payments/".length());
        String webhook = """
                {"type": "payment.succeeded", "data": {"paymentId": "%s", "chargeId": "%s", "amount": 5000,
                "currency": "USD"}}""".formatted(paymentId,
                queries.text("select id from sandbox_charges where payment_id = $1", paymentId));
        instances.client(1).post().uri("/v1/webhooks/sandbox")
                .headers(h -> h.addAll(SignedWebhooks.sign(SECRET, "msg_" + UUID.randomUUID(), Instant.now(), webhook)))
                .header("Content-Type", "application/json").bodyValue(webhook)
                .retrieve().toBodilessEntity().block(Duration.ofSeconds(30));
        assertThat(queries.text("select status from payments where id = $1", paymentId)).isEqualTo("COMPLETED");

        record Answer(String key, long amount, int status, String body) {
        }
        List<Answer> answers = Flux.range(0, 50)
                .flatMap(i -> {
                    String key = "rk_" + i + "_" + UUID.randomUUID();
                    long amount = 100 + 7L * i; // together 13575, far more than 5000
                    return refund(i % 3, paymentId, key, amount).map(a -> new Answer(key, amount, a.getKey(),
                            a.getValue()));
                }, 50)
                .collectList()
                .block(Duration.ofSeconds(60));

        assertThat(answers).extracting(Answer::status).isSubsetOf(201, 409).contains(201, 409);
        long accepted = answers.stream().filter(a -> a.status() == 201).mapToLong(Answer::amount).sum();
        assertThat(accepted).isLessThanOrEqualTo(5000);
        answers.stream().filter(a -> a.status() == 409)
                .forEach(a -> assertThat(a.body()).contains("amount_exceeds_refundable"));
        assertThat(queries.count("select coalesce(sum(amount), 0) from refunds where payment_id = $1", paymentId))
                .isEqualTo(accepted);
        assertThat(queries.count("select amount_reserved from payments where id = $1", paymentId)).isEqualTo(accepted);

        // every accepted key replayed on another instance answers the same bytes
        for (int i = 0; i < answers.size(); i++) {
            Answer first = answers.get(i);
            if (first.status() == 201) {
                Map.Entry<Integer, String> again = refund((i + 1) % 3, paymentId, first.key(), first.amount())
                        .block(Duration.ofSeconds(30));
                assertThat(again.getKey()).isEqualTo(201);
                assertThat(again.getValue()).isEqualTo(first.body());
            }
        }
        assertThat(queries.count("select coalesce(sum(amount), 0) from refunds where payment_id = $1", paymentId))
                .isEqualTo(accepted);

        // the rest, then every refund settles; the booking is cancelled once, one e-mail
        if (accepted < 5000) {
            assertThat(refund(2, paymentId, "rk_rest_" + UUID.randomUUID(), null).block(Duration.ofSeconds(30))
                    .getKey()).isEqualTo(201);
        }
        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> queries.count(
                "select count(*) from refunds where payment_id = $1 and status = 'PENDING'", paymentId) == 0);
        assertThat(queries.count("select amount_refunded from payments where id = $1", paymentId)).isEqualTo(5000);
        assertThat(queries.count("select count(*) from bookings where id = $1 and status = 'CANCELLED'", booking))
                .isEqualTo(1);
        assertThat(queries.count("select count(*) from events where booking_id = $1 and type = 'booking.cancelled'",
                booking)).isEqualTo(1);
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> queries.count(
                "select count(*) from booking_cancellation_emails where booking_id = $1 and sent_at is not null",
                booking) == 1);
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> queries.count(
                "select count(*) from events where booking_id = $1 and dispatched_at is null", booking) == 0);
        assertThat(TestMailServer.messagesTo(email)).hasSize(2); // the confirmation and the cancellation
    }

    private reactor.core.publisher.Mono<Map.Entry<Integer, String>> refund(int instance, String paymentId, String key,
                                                                          Long amount) {
        return instances.client(instance).post().uri("/v1/payments/" + paymentId + "/refunds")
                .header("Authorization", "Bearer sk_test_demo")
                .header("Idempotency-Key", key)
                .header("Content-Type", "application/json")
                .bodyValue(amount == null ? "{}" : "{\"amount\": " + amount + "}")
                .exchangeToMono(r -> r.bodyToMono(String.class).defaultIfEmpty("")
                        .map(body -> Map.entry(r.statusCode().value(), body)));
    }
}
