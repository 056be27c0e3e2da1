package com.payorch.outbox;

import com.payorch.events.Event;
import com.payorch.events.EventType;
import reactor.core.publisher.Mono;

/**
 * Acts on one type of outbox event; any bean implementing it is found by {@link OutboxRelay}. Delivery is at least
 * once (a crash, a lost lease or another consumer's failure delivers the event again), so {@link #deliver} must be
 * idempotent. An error, or a Mono that never completes within the lease, means "deliver again later" with backoff.
 */
public interface OutboxConsumer {

    EventType eventType();

    /** The types it acts on: by default only {@link #eventType()}; a consumer of every type answers them all. */
    default java.util.Set<EventType> eventTypes() {
        return java.util.Set.of(eventType());
    }

    Mono<Void> deliver(Event event);
}
