package com.payorch.connectors.stripe;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.fakes.FakeStripe;
import com.payorch.testsupport.ServiceInstances;
import com.payorch.testsupport.TestQueries;
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
 * The Stripe connector across three service instances sharing one database and one (fake) Stripe account:
 * duplicate client POSTs and duplicate Stripe events spread over the instances make one payment, one PaymentIntent,
 * one booking activation.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StripeThreeInstancesIT {

    private static final String SECRET_KEY = "sk_test_51FakeClusterSecretKeyDoNotLog0004";
    private static final String WEBHOOK_SECRET = "whsec_FakeClusterEndpointSecretDoNotLog4";

    private final FakeStripe stripe = new FakeStripe(0).acceptKey(SECRET_KEY);
    private ServiceInstances instances;
    private TestQueries queries;

    @BeforeAll
    void startThreeInstances() {
        instances = ServiceInstances.start(3, "stripe_cluster_tests", List.of(
                "--payments.merchants.cluster.api-key=sk_test_cluster",
                "--payments.merchants.cluster.routing=stripe",
                "--payments.merchants.cluster.connectors.stripe.secret-key=" + SECRET_KEY,
                "--payments.merchants.cluster.connectors.stripe.webhook-secret=" + WEBHOOK_SECRET,
                "--payments.connectors.stripe.api-base=" + stripe.baseUrl()));
        queries = instances.queries();
    }

    @AfterAll
    void stop() {
        instances.close();
        stripe.close();
    }

    @Test
    void duplicatePostsAndEventsAcrossInstancesMakeOnePaymentOneIntentOneActivation() {
        String booking = "bk_" + UUID.randomUUID().toString().substring(0, 12);
        String key = "key_" + UUID.randomUUID();
        String body = """
                {"bookingId": "%s", "amount": 5000, "currency": "USD", "paymentMethod": "pm_card_processing"}"""
                .formatted(booking);

        List<Integer> statuses = instances.postPaymentConcurrently("sk_test_cluster", key, body, 30);
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
                .flatMap(i -> instances.client(i).post().uri("/v1/webhooks/stripe/cluster")
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
