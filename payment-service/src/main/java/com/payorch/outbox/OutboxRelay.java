package com.payorch.outbox;

import com.payorch.events.EventType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Delivers outbox events to the {@link OutboxConsumer}s of their type, at least once, from any number of service
 * instances: claim a batch of due events (with a lease), deliver each, then mark the batch's delivered events
 * dispatched in one statement, or on failure schedule the next attempt with exponential backoff; after
 * `max-attempts` failures an event is parked (a dead letter) until an operator requeues it. Events of a type nobody
 * consumes are simply dispatched.
 * Per payment, events are delivered one after the other in the order they were written (only a payment's oldest
 * undispatched event is claimable, see {@link OutboxQueue#claim}); no order is promised between payments.
 */
@Component
public class OutboxRelay {

    private static final Logger log = LoggerFactory.getLogger(OutboxRelay.class);
    private static final int MAX_ERROR_LENGTH = 500;

    private final OutboxQueue queue;
    private final OutboxProperties properties;
    private final OutboxMetrics metrics;
    private final Map<EventType, List<OutboxConsumer>> consumers;

    OutboxRelay(OutboxQueue queue, OutboxProperties properties, OutboxMetrics metrics,
                ObjectProvider<OutboxConsumer> consumers) {
        this.queue = queue;
        this.properties = properties;
        this.metrics = metrics;
        this.consumers = consumers.orderedStream()
                .flatMap(consumer -> consumer.eventTypes().stream().map(type -> Map.entry(type, consumer)))
                .collect(Collectors.groupingBy(Map.Entry::getKey, () -> new EnumMap<>(EventType.class),
                        Collectors.mapping(Map.Entry::getValue, Collectors.toList())));
    }

    /**
     * One run: batches until one comes back less than full. Run every `poll-interval` by {@link OutboxJobs}; runs
     * never overlap within an instance (fixed delay).
     */
    public Mono<Void> relayDueEvents() {
        return relayRun()
                .then()
                .onErrorResume(e -> {
                    log.warn("Outbox relay run failed; claimed events are retried when their lease ends: {}",
                            e.toString());
                    return Mono.empty();
                });
    }

    /**
     * One run's batches, answering each batch's size: the next batch is claimed at once after a full one, and after
     * one whose dispatched events let a later event of the same payment become claimable (per-payment order), so a
     * payment's events do not wait a poll interval each.
     */
    Mono<List<Integer>> relayRun() {
        return relayBatch()
                .expand(batch -> batch.claimed() == properties.batchSize() || batch.successorsWaiting() ? relayBatch()
                        : Mono.empty())
                .map(Batch::claimed)
                .collectList();
    }

    private record Batch(int claimed, boolean successorsWaiting) {
    }

    private Mono<Batch> relayBatch() {
        UUID token = UUID.randomUUID();
        return queue.claim(properties.batchSize(), properties.lease(), token)
                .collectList()
                .flatMap(batch -> {
                    Map<Boolean, List<ClaimedEvent>> byConsumed = batch.stream()
                            .collect(Collectors.partitioningBy(event -> !consumersOf(event).isEmpty()));
                    return Flux.fromIterable(byConsumed.get(true))
                            .flatMap(event -> deliver(event, token).filter(delivered -> delivered).map(ok -> event),
                                    properties.concurrency())
                            .collectList()
                            .flatMap(delivered -> {
                                List<ClaimedEvent> done = new ArrayList<>(byConsumed.get(false));
                                done.addAll(delivered);
                                return acknowledge(done);
                            })
                            .map(successors -> new Batch(batch.size(), successors));
                });
    }

    /**
     * Marks the batch's delivered events (and those nobody consumes) dispatched in one statement. Until then they
     * stay claimed by this batch, whose lease outlasts any delivery, so no other instance delivers them meanwhile.
     */
    private Mono<Boolean> acknowledge(List<ClaimedEvent> events) {
        if (events.isEmpty()) {
            return Mono.just(false);
        }
        return queue.markDispatched(events.stream().map(ClaimedEvent::id).toList())
                .doOnSuccess(done -> events.forEach(event -> metrics.delivered(event.type(), true)))
                .onErrorResume(error -> {
                    log.warn("Could not mark {} delivered events dispatched; they are delivered again when their"
                            + " lease ends: {}", events.size(), error.toString());
                    return Mono.just(false);
                });
    }

    /** Delivers one event to its consumers; true when all of them succeeded, false when a failure was recorded. */
    private Mono<Boolean> deliver(ClaimedEvent claimed, UUID token) {
        EventType type = claimed.knownType().orElseThrow();
        return Flux.fromIterable(consumersOf(claimed))
                .concatMap(consumer -> Mono.defer(() -> consumer.deliver(claimed.toEvent(type))))
                .then()
                // A hung consumer must not stall this instance's relay (runs never overlap); the lease is longer, so
                // no other instance delivers the event while this one still waits for it.
                .timeout(properties.deliveryTimeout())
                .then(Mono.just(true))
                .onErrorResume(error -> recordFailure(claimed, token, error)
                        .onErrorResume(recordError -> {
                            log.warn("Could not record the failed delivery of event {} (payment {}, merchant {}); it"
                                    + " is delivered again when its lease ends: {}", claimed.id(), claimed.paymentId(),
                                    claimed.merchantId(), recordError.toString());
                            return Mono.empty();
                        })
                        .thenReturn(false));
    }

    private Mono<Void> recordFailure(ClaimedEvent claimed, UUID token, Throwable error) {
        Duration backoff = properties.backoffAfter(claimed.attempts());
        boolean park = claimed.attempts() >= properties.maxAttempts();
        String summary = summary(error);
        metrics.delivered(claimed.type(), false);
        if (park) {
            metrics.parked(claimed.type());
            log.error("Delivery of event {} ({}, payment {}, merchant {}) failed on attempt {} of {}; parked as a dead"
                    + " letter, requeue it with POST /actuator/outbox/{}: {}", claimed.id(), claimed.type(),
                    claimed.paymentId(), claimed.merchantId(), claimed.attempts(), properties.maxAttempts(),
                    claimed.id(), summary);
        } else {
            log.warn("Delivery of event {} ({}, payment {}, merchant {}) failed on attempt {}; next attempt in {}: {}",
                    claimed.id(), claimed.type(), claimed.paymentId(), claimed.merchantId(), claimed.attempts(),
                    backoff, summary);
        }
        return queue.markFailed(claimed.id(), token, backoff, summary, park);
    }

    private List<OutboxConsumer> consumersOf(ClaimedEvent event) {
        return event.knownType().map(type -> consumers.getOrDefault(type, List.of())).orElse(List.of());
    }

    /** Exception class and message only: consumers must not put secrets or bodies in exception messages. */
    static String summary(Throwable error) {
        String summary = error.getClass().getSimpleName() + (error.getMessage() == null ? "" : ": " + error.getMessage());
        return summary.length() <= MAX_ERROR_LENGTH ? summary : summary.substring(0, MAX_ERROR_LENGTH);
    }
}
