package com.payorch.outbox;

import com.payorch.events.EventType;
import java.time.Duration;
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
 * instances: claim a batch of due events (with a lease), deliver each, then mark it dispatched, or on failure
 * schedule the next attempt with exponential backoff. Events of a type nobody consumes are simply dispatched.
 * No ordering is promised between events; a consumer that needs one must check state itself.
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
        return relayBatch()
                .expand(claimed -> claimed == properties.batchSize() ? relayBatch() : Mono.empty())
                .then()
                .onErrorResume(e -> {
                    log.warn("Outbox relay run failed; claimed events are retried when their lease ends: {}",
                            e.toString());
                    return Mono.empty();
                });
    }

    private Mono<Integer> relayBatch() {
        UUID token = UUID.randomUUID();
        return queue.claim(properties.batchSize(), properties.lease(), token)
                .collectList()
                .flatMap(batch -> {
                    Map<Boolean, List<ClaimedEvent>> byConsumed = batch.stream()
                            .collect(Collectors.partitioningBy(event -> !consumersOf(event).isEmpty()));
                    return dispatchUnconsumed(byConsumed.get(false))
                            .thenMany(Flux.fromIterable(byConsumed.get(true))
                                    .flatMap(event -> deliver(event, token), properties.concurrency()))
                            .then(Mono.just(batch.size()));
                });
    }

    private Mono<Void> dispatchUnconsumed(List<ClaimedEvent> events) {
        if (events.isEmpty()) {
            return Mono.empty();
        }
        return queue.markDispatched(events.stream().map(ClaimedEvent::id).toList())
                .doOnSuccess(done -> events.forEach(event -> metrics.delivered(event.type(), true)));
    }

    private Mono<Void> deliver(ClaimedEvent claimed, UUID token) {
        EventType type = claimed.knownType().orElseThrow();
        return Flux.fromIterable(consumersOf(claimed))
                .concatMap(consumer -> Mono.defer(() -> consumer.deliver(claimed.toEvent(type))))
                .then()
                // A hung consumer must not stall this instance's relay (runs never overlap); the lease is longer, so
                // no other instance delivers the event while this one still waits for it.
                .timeout(properties.deliveryTimeout())
                .then(Mono.just(true))
                .onErrorResume(error -> recordFailure(claimed, token, error).thenReturn(false))
                .flatMap(delivered -> delivered
                        ? queue.markDispatched(List.of(claimed.id())).doOnSuccess(done -> metrics.delivered(claimed.type(), true))
                        : Mono.empty())
                .onErrorResume(error -> {
                    log.warn("Could not record the outcome of event {} (payment {}, merchant {}); it is delivered"
                            + " again when its lease ends: {}", claimed.id(), claimed.paymentId(), claimed.merchantId(),
                            error.toString());
                    return Mono.empty();
                });
    }

    private Mono<Void> recordFailure(ClaimedEvent claimed, UUID token, Throwable error) {
        Duration backoff = properties.backoffAfter(claimed.attempts());
        String summary = summary(error);
        metrics.delivered(claimed.type(), false);
        log.warn("Delivery of event {} ({}, payment {}, merchant {}) failed on attempt {}; next attempt in {}: {}",
                claimed.id(), claimed.type(), claimed.paymentId(), claimed.merchantId(), claimed.attempts(), backoff,
                summary);
        return queue.markFailed(claimed.id(), token, backoff, summary);
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
