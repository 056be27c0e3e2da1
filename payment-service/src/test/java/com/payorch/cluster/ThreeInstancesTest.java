package com.payorch.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.PaymentServiceApplication;
import com.payorch.testsupport.ApiTest;
import com.payorch.testsupport.OwnSchema;
import com.payorch.testsupport.SignedWebhooks;
import com.payorch.testsupport.TestDatabase;
import com.payorch.testsupport.TestMailServer;
import com.payorch.testsupport.TestQueries;
import org.awaitility.Awaitility;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Flux;

/**
 * Three service instances in one test run, sharing one database: duplicate client POSTs and duplicate gateway
 * webhooks spread across them still make one payment, one charge, one booking activation and one e-mail.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ThreeInstancesTest {

    private static final String SECRET = ApiTest.WEBHOOK_SECRET;

    private final List<ConfigurableApplicationContext> instances = new ArrayList<>();
    private final List<WebClient> clients = new ArrayList<>();
    private TestQueries queries;

    @BeforeAll
    void startThreeInstances() {
        TestDatabase database = TestDatabase.get();
        for (int i = 0; i < 3; i++) {
            // Command-line arguments, so they win over application.yml as they would for a deployed instance.
            List<String> arguments = new ArrayList<>(List.of("--server.port=0",
                    // A throwaway external database: the shipped development key (sk_test_demo) is fine.
                    "--payments.allow-development-defaults=true",
                    "--server.shutdown=immediate",
                    "--spring.r2dbc.url=" + database.r2dbcUrl(),
                    "--spring.r2dbc.username=" + database.username(),
                    "--spring.r2dbc.password=" + database.password(),
                    "--spring.flyway.url=" + database.jdbcUrl(),
                    "--spring.flyway.user=" + database.username(),
                    "--spring.flyway.password=" + database.password(),
                    "--payments.db.embedded=false",
                    "--payments.gateway.sandbox.webhooks=off",
                    "--payments.gateway.sandbox.webhook-secret=" + SECRET,
                    "--spring.mail.host=127.0.0.1",
                    "--spring.mail.port=" + TestMailServer.port()));
            // Its own schema, so the relays of other cached test contexts never see these events.
            arguments.addAll(OwnSchema.Settings.commandLine("cluster_tests"));
            ConfigurableApplicationContext context = new SpringApplicationBuilder(PaymentServiceApplication.class)
                    .run(arguments.toArray(String[]::new));
            instances.add(context);
            int port = ((WebServerApplicationContext) context).getWebServer().getPort();
            clients.add(WebClient.builder().baseUrl("http://localhost:" + port).build());
        }
        queries = TestQueries.of(instances.get(0));
    }

    @AfterAll
    void stopInstances() {
        instances.forEach(ConfigurableApplicationContext::close);
    }

    @Test
    void duplicatePostsAndWebhooksAcrossInstancesMakeOnePaymentOneChargeOneActivation() {
        String booking = "bk_" + UUID.randomUUID().toString().substring(0, 12);
        String key = "key_" + UUID.randomUUID();
        String email = "guest+" + booking + "@example.com";
        String body = """
                {"bookingId": "%s", "amount": 5000, "currency": "USD", "paymentMethod": "pm_card_ok",
                 "customerEmail": "%s"}""".formatted(booking, email);

        List<Integer> statuses = Flux.range(0, 30)
                .flatMap(i -> clients.get(i % 3).post().uri("/v1/payments")
                        .header("Authorization", "Bearer sk_test_demo")
                        .header("Idempotency-Key", key)
                        .header("Content-Type", "application/json")
                        .bodyValue(body)
                        .exchangeToMono(r -> r.releaseBody().thenReturn(r.statusCode().value())), 30)
                .collectList()
                .block(Duration.ofSeconds(60));
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
                .flatMap(i -> clients.get(i % 3).post().uri("/v1/webhooks/sandbox")
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
}
