package com.payorch.connectors;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.PaymentServiceApplication;
import com.payorch.fakes.FakeStripe;
import com.payorch.testsupport.OwnSchema;
import com.payorch.testsupport.TestDatabase;
import com.payorch.testsupport.TestQueries;
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
 * The Stripe connector across three service instances sharing one database and one (fake) Stripe account:
 * duplicate client POSTs and duplicate Stripe events spread over the instances make one payment, one PaymentIntent,
 * one booking activation.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StripeThreeInstancesTest {

    private static final String SECRET_KEY = "sk_test_51FakeClusterSecretKeyDoNotLog0004";
    private static final String WEBHOOK_SECRET = "whsec_FakeClusterEndpointSecretDoNotLog4";

    private final FakeStripe stripe = new FakeStripe(0).acceptKey(SECRET_KEY);
    private final List<ConfigurableApplicationContext> instances = new ArrayList<>();
    private final List<WebClient> clients = new ArrayList<>();
    private TestQueries queries;

    @BeforeAll
    void startThreeInstances() {
        TestDatabase database = TestDatabase.get();
        for (int i = 0; i < 3; i++) {
            List<String> arguments = new ArrayList<>(List.of("--server.port=0",
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
                    "--payments.merchants.cluster.api-key=sk_test_cluster",
                    "--payments.merchants.cluster.routing=stripe",
                    "--payments.merchants.cluster.connectors.stripe.secret-key=" + SECRET_KEY,
                    "--payments.merchants.cluster.connectors.stripe.webhook-secret=" + WEBHOOK_SECRET,
                    "--payments.connectors.stripe.api-base=" + stripe.baseUrl()));
            // Its own schema, so the jobs of other cached test contexts never see these payments.
            arguments.addAll(OwnSchema.Settings.commandLine("stripe_cluster_tests"));
            ConfigurableApplicationContext context = new SpringApplicationBuilder(PaymentServiceApplication.class)
                    .run(arguments.toArray(String[]::new));
            instances.add(context);
            int port = ((WebServerApplicationContext) context).getWebServer().getPort();
            clients.add(WebClient.builder().baseUrl("http://localhost:" + port).build());
        }
        queries = TestQueries.of(instances.get(0));
    }

    @AfterAll
    void stop() {
        instances.forEach(ConfigurableApplicationContext::close);
        stripe.close();
    }

    @Test
    void duplicatePostsAndEventsAcrossInstancesMakeOnePaymentOneIntentOneActivation() {
        String booking = "bk_" + UUID.randomUUID().toString().substring(0, 12);
        String key = "key_" + UUID.randomUUID();
        String body = """
                {"bookingId": "%s", "amount": 5000, "currency": "USD", "paymentMethod": "pm_card_processing"}"""
                .formatted(booking);

        List<Integer> statuses = Flux.range(0, 30)
                .flatMap(i -> clients.get(i % 3).post().uri("/v1/payments")
                        .header("Authorization", "Bearer sk_test_cluster")
                        .header("Idempotency-Key", key)
                        .header("Content-Type", "application/json")
                        .bodyValue(body)
                        .exchangeToMono(r -> r.releaseBody().thenReturn(r.statusCode().value())), 30)
                .collectList()
                .block(Duration.ofSeconds(60));
        assertThat(statuses).isSubsetOf(201, 409).contains(201);
        assertThat(queries.count("select count(*) from payments where booking_id = $1", booking)).isEqualTo(1);
        String paymentId = queries.paymentOfBooking(booking);
        assertThat(stripe.intentsFor(paymentId)).isEqualTo(1);
        assertThat(queries.statusOf(paymentId)).isEqualTo("PROCESSING");

        String intent = queries.text("select connector || ':' || reference from payment_attempts where payment_id = $1",
                paymentId);
        assertThat(intent).startsWith("stripe:pi_");
        String event = FakeStripe.event("evt_" + UUID.randomUUID().toString().replace("-", ""),
                "payment_intent.succeeded", stripe.settle(intent.substring("stripe:".length()), "succeeded"),
                "2025-06-30.basil");
        String signature = FakeStripe.sign(event, WEBHOOK_SECRET, Instant.now().getEpochSecond());
        List<String> outcomes = Flux.range(0, 30)
                .flatMap(i -> clients.get(i % 3).post().uri("/v1/webhooks/stripe/cluster")
                        .header("Stripe-Signature", signature)
                        .header("Content-Type", "application/json")
                        .bodyValue(event)
                        .retrieve()
                        .bodyToMono(Map.class)
                        .map(answer -> (String) answer.get("status")), 30)
                .collectList()
                .block(Duration.ofSeconds(60));

        assertThat(outcomes).filteredOn("applied"::equals).hasSize(1);
        assertThat(outcomes).filteredOn("duplicate"::equals).hasSize(29);
        assertThat(queries.statusOf(paymentId)).isEqualTo("COMPLETED");
        assertThat(queries.count("select count(*) from payment_transitions where payment_id = $1 and event = 'SUCCEED'",
                paymentId)).isEqualTo(1);
        assertThat(queries.count("select count(*) from events where booking_id = $1 and type = 'booking.activated'",
                booking)).isEqualTo(1);
        assertThat(stripe.chargesFor(paymentId)).isEqualTo(1);
    }
}
