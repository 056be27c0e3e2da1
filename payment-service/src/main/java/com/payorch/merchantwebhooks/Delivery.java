package com.payorch.merchantwebhooks;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/** One attempt to deliver an event to its merchant: a `webhook_deliveries` row. */
public record Delivery(String id, String eventId, String merchantId, int attempt, String status,
                       @Nullable Integer responseStatus, @Nullable String error, Instant at) {
}
