package com.payorch.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.payments.CustomerAction;
import com.payorch.testsupport.ApiTest;
import com.payorch.testsupport.ServiceInstances;
import com.payorch.testsupport.TestQueries;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import reactor.core.publisher.Flux;

/**
 * Three service instances on one database, each running the customer-action expiry every 50 ms: every payment whose
 * customer never authenticates is FAILED {@code authentication_expired} by exactly one transition, with one
 * {@code payment.failed} event, however the instances' runs interleave.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CustomerActionExpiryInstancesIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final int PAYMENTS = 6;

    private ServiceInstances instances;
    private TestQueries queries;

    @BeforeAll
    void startThreeInstances() {
        instances = ServiceInstances.start(3, "customer_action_expiry_instances", List.of(
                "--payments.gateway.sandbox.webhook-secret=" + ApiTest.WEBHOOK_SECRET,
                "--payments.customer-action.expires-after=PT1S",
                "--payments.recovery.interval=PT0.05S",
                "--payments.recovery.pending-after=PT1S"));
        queries = instances.queries();
    }

    @AfterAll
    void stopInstances() {
        instances.close();
    }

    @Test
    void eachExpiredPaymentFailsOnceWithOneEventAcrossThreeInstances() {
        String prefix = "bk_" + UUID.randomUUID().toString().substring(0, 8);
        List<Integer> created = Flux.range(0, PAYMENTS)
                .flatMap(i -> instances.client(i).post().uri("/v1/payments")
                        .header("Authorization", "Bearer sk_test_demo")
                        .header("Idempotency-Key", "key_" + UUID.randomUUID())
                        .header("Content-Type", "application/json")
                        .bodyValue("""
                                {"bookingId": "%s_%d", "amount": 5000, "currency": "USD",
                                 "paymentMethod": "pm_card_3ds", "customerEmail": "guest@example.com",
                                 "returnUrl": "https://shop.example/back"}""".formatted(prefix, i))
                        .exchangeToMono(r -> r.releaseBody().thenReturn(r.statusCode().value())))
                .collectList()
                .block(WAIT);
        assertThat(created).hasSize(PAYMENTS).containsOnly(201);

        Awaitility.await().atMost(WAIT).until(() -> queries.count("select count(*) from payments"
                + " where booking_id like $1 and status = 'FAILED'", prefix + "_%") == PAYMENTS);

        assertThat(queries.count("select count(*) from payments where booking_id like $1 and failure_reason = $2",
                prefix + "_%", CustomerAction.AUTHENTICATION_EXPIRED)).isEqualTo(PAYMENTS);
        assertThat(queries.count("select count(*) from payment_transitions t join payments p on p.id = t.payment_id"
                + " where p.booking_id like $1 and t.event = 'REQUIRE_ACTION'", prefix + "_%")).isEqualTo(PAYMENTS);
        assertThat(queries.count("select count(*) from payment_transitions t join payments p on p.id = t.payment_id"
                + " where p.booking_id like $1 and t.to_status = 'FAILED'", prefix + "_%")).isEqualTo(PAYMENTS);
        assertThat(queries.count("select count(*) from events e join payments p on p.id = e.payment_id"
                + " where p.booking_id like $1 and e.type = 'payment.failed'", prefix + "_%")).isEqualTo(PAYMENTS);
        assertThat(queries.count("select count(*) from sandbox_charges c join payments p on p.id = c.payment_id"
                + " where p.booking_id like $1 and c.status = 'cancelled'", prefix + "_%")).isEqualTo(PAYMENTS);
        assertThat(queries.count("select count(*) from payments where booking_id like $1 and cancel_reason = $2",
                prefix + "_%", CustomerAction.AUTHENTICATION_EXPIRED)).isEqualTo(PAYMENTS);
    }
}
