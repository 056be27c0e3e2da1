package com.payorch.events;

import java.time.Instant;

/** An outbox row: something that happened, written in the same transaction as the change it reports. */
public record Event(String id, String merchantId, EventType type, String paymentId, String bookingId, String dataJson,
                   Instant createdAt) {
}
