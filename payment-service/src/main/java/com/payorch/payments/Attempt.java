package com.payorch.payments;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * One submission of a payment to a connector: attempt 1 is the first, every RETRY starts the next.
 *
 * @param reference the connector's id for this attempt's charge, once known
 */
public record Attempt(int number, String connector, @Nullable String reference, AttemptStatus status,
                      @Nullable String failureReason, Instant createdAt) {
}
