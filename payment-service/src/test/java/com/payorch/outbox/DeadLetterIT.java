package com.payorch.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.payorch.events.Event;
import com.payorch.events.EventType;
import com.payorch.testsupport.OutboxApiTest;
import com.payorch.testsupport.OwnSchema;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.TestPropertySource;
import reactor.core.publisher.Mono;

/**
 * An event whose delivery keeps failing is parked after `max-attempts` (3 here, with short backoff), counted by the
 * payments.outbox.parked gauge, listed by the operator's /actuator/outbox and, once requeued there, delivered.
 */
@OwnSchema("dead_letter_tests")
@TestPropertySource(properties = {
        "payments.outbox.max-attempts=3",
        "payments.outbox.initial-backoff=PT0.05S",
        "payments.outbox.max-backoff=PT0.1S",
        "payments.operator.api-key=" + DeadLetterIT.OPERATOR_KEY})
class DeadLetterIT extends OutboxApiTest {

    static final String OPERATOR_KEY = "op_test_dead_letters";
    private static final Duration WAIT = Duration.ofSeconds(15);

    /** Fails every delivery of a booking.activated whose booking is in {@link #FAILING}. */
    @TestConfiguration
    static class FailingConsumer {

        static final Set<String> FAILING = ConcurrentHashMap.newKeySet();

        @Bean
        OutboxConsumer failingForChosenBookings() {
            return new OutboxConsumer() {
                @Override
                public EventType eventType() {
                    return EventType.BOOKING_ACTIVATED;
                }

                @Override
                public Mono<Void> deliver(Event event) {
                    return FAILING.contains(event.bookingId())
                            ? Mono.error(new IllegalStateException("downstream down for " + event.bookingId()))
                            : Mono.empty();
                }
            };
        }
    }

    @Autowired
    private MeterRegistry meters;

    @Autowired
    private OutboxMetrics metrics;

    @Test
    void aDeliveryThatKeepsFailingIsParkedListedAndCanBeRequeued() {
        String booking = unique("bk");
        String healthyBooking = unique("bk");
        String payment = createPaymentWithEmail(booking, null);
        String healthyPayment = createPaymentWithEmail(healthyBooking, null);
        FailingConsumer.FAILING.add(booking);

        Event failing = appendBookingActivated(payment, booking);
        Event healthy = appendBookingActivated(healthyPayment, healthyBooking);

        // A failing neighbour does not hold up the other event: it is delivered once.
        await().atMost(WAIT).until(() -> eventRow(healthy.id()).dispatched());
        assertThat(eventRow(healthy.id()).attempts()).isEqualTo(1);

        await().atMost(WAIT).until(() -> parkedAt(failing.id()) != null);
        var parked = eventRow(failing.id());
        assertThat(parked.attempts()).isEqualTo(3);
        assertThat(parked.dispatched()).isFalse();
        assertThat(parked.claimed()).isFalse();
        assertThat(parked.lastError()).isEqualTo("IllegalStateException: downstream down for " + booking);
        // Parked means no further attempts, though its backoff (0.1 s) has long run out.
        await().during(Duration.ofMillis(800)).atMost(WAIT).until(() -> eventRow(failing.id()).attempts() == 3);

        metrics.refreshBacklog().block(WAIT);
        assertThat(meters.get("payments.outbox.parked").gauge().value()).isGreaterThanOrEqualTo(1);
        assertThat(meters.get("payments.outbox.parked.events").tag("type", "booking.activated").counter().count())
                .isGreaterThanOrEqualTo(1);
        client.get().uri("/actuator/prometheus").header("Authorization", "Bearer " + OPERATOR_KEY).exchange()
                .expectStatus().isOk()
                .expectBody(String.class).value(body -> assertThat(body)
                        .containsPattern("(?m)^payments_outbox_parked(\\{[^}]*\\})? [1-9]"));

        client.get().uri("/actuator/outbox").header("Authorization", "Bearer " + OPERATOR_KEY).exchange()
                .expectStatus().isOk()
                .expectBody()
                .jsonPath("$.parked[?(@.id == '%s')].attempts".formatted(failing.id())).isEqualTo(List.of(3))
                .jsonPath("$.parked[?(@.id == '%s')].paymentId".formatted(failing.id())).isEqualTo(List.of(payment))
                .jsonPath("$.parked[?(@.id == '%s')].lastError".formatted(failing.id()))
                .isEqualTo(List.of("IllegalStateException: downstream down for " + booking))
                .jsonPath("$.parked[?(@.id == '%s')]".formatted(healthy.id())).doesNotExist();

        // The downstream is back: the operator requeues the dead letter and it is delivered.
        FailingConsumer.FAILING.remove(booking);
        client.post().uri("/actuator/outbox/{id}", failing.id()).header("Authorization", "Bearer " + OPERATOR_KEY)
                .exchange()
                .expectStatus().isOk()
                .expectBody().jsonPath("$.requeued").isEqualTo(true);
        await().atMost(WAIT).until(() -> eventRow(failing.id()).dispatched());
        assertThat(eventRow(failing.id()).attempts()).isEqualTo(1);
        assertThat(parkedAt(failing.id())).isNull();

        // Only parked events can be requeued: a delivered one, or an unknown id, is not.
        client.post().uri("/actuator/outbox/{id}", failing.id()).header("Authorization", "Bearer " + OPERATOR_KEY)
                .exchange()
                .expectStatus().isOk()
                .expectBody().jsonPath("$.requeued").isEqualTo(false);
        client.post().uri("/actuator/outbox/{id}", "evt_unknown").header("Authorization", "Bearer " + OPERATOR_KEY)
                .exchange()
                .expectStatus().isOk()
                .expectBody().jsonPath("$.requeued").isEqualTo(false);
    }

    @Test
    void requeueingAllPutsEveryParkedEventBack() {
        List<String> bookings = List.of(unique("bk"), unique("bk"));
        List<Event> parked = bookings.stream().map(booking -> {
            FailingConsumer.FAILING.add(booking);
            return appendBookingActivated(createPaymentWithEmail(booking, null), booking);
        }).toList();
        await().atMost(WAIT).until(() -> parked.stream().allMatch(event -> parkedAt(event.id()) != null));

        bookings.forEach(FailingConsumer.FAILING::remove);
        client.post().uri("/actuator/outbox").header("Authorization", "Bearer " + OPERATOR_KEY).exchange()
                .expectStatus().isOk()
                .expectBody().jsonPath("$.requeued").value(n -> assertThat(((Number) n).longValue())
                        .isGreaterThanOrEqualTo(2));

        await().atMost(WAIT).until(() -> parked.stream().allMatch(event -> eventRow(event.id()).dispatched()));
        assertThat(parked).allSatisfy(event -> assertThat(parkedAt(event.id())).isNull());
    }

    @Test
    void theOutboxEndpointIsTheOperatorsOnly() {
        client.get().uri("/actuator/outbox").header("Authorization", "Bearer " + DEMO_KEY).exchange()
                .expectStatus().isUnauthorized();
        client.post().uri("/actuator/outbox/{id}", "evt_any").exchange()
                .expectStatus().isUnauthorized();
        client.post().uri("/actuator/outbox/{id}", "evt_any").header("Authorization", "Bearer " + DEMO_KEY)
                .exchange()
                .expectStatus().isUnauthorized();
    }

    private Instant parkedAt(String eventId) {
        return db.sql("select parked_at from events where id = $1").bind(0, eventId)
                .map(row -> java.util.Optional.ofNullable(row.get("parked_at", Instant.class)))
                .one()
                .block(WAIT)
                .orElse(null);
    }
}
