package com.payorch.console;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * The filters of the console's payment list, each applied only when given. {@code query} matches a payment id or a
 * booking id exactly; the others as in {@code GET /v1/payments}, plus the merchant and the connector.
 */
public record PaymentSearch(@Nullable String query, @Nullable String merchant, @Nullable String status,
                            @Nullable String bookingId, @Nullable String connector, @Nullable Instant createdAfter,
                            @Nullable Instant createdBefore) {
}
