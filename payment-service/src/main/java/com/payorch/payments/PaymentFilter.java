package com.payorch.payments;

import com.payorch.statemachine.PaymentStatus;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * The filters of `GET /v1/payments`, each applied only when given: the booking, the status, and created strictly
 * after / strictly before an instant.
 */
public record PaymentFilter(@Nullable String bookingId, @Nullable PaymentStatus status, @Nullable Instant createdAfter,
                            @Nullable Instant createdBefore) {

    public static final PaymentFilter NONE = new PaymentFilter(null, null, null, null);
}
