package com.payorch.outbox;

import com.payorch.events.Event;
import com.payorch.events.EventType;
import java.time.Instant;
import java.util.Optional;

/** An event row claimed by a relay batch; `attempts` already counts this delivery. `type` may be one this build does not know. */
record ClaimedEvent(long seq, String id, String merchantId, String type, String paymentId, String bookingId,
                    String dataJson, Instant createdAt, int attempts) {

    Optional<EventType> knownType() {
        return EventType.fromValue(type);
    }

    Event toEvent(EventType eventType) {
        return new Event(id, merchantId, eventType, paymentId, bookingId, dataJson, createdAt);
    }
}
