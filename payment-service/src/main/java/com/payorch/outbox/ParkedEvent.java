package com.payorch.outbox;

import java.time.Instant;

/** A dead letter: an event whose delivery failed `max-attempts` times and is no longer retried until requeued. */
public record ParkedEvent(String id, String merchantId, String type, String paymentId, int attempts, String lastError,
                          Instant createdAt, Instant parkedAt) {
}
