package com.payorch.idempotency;

import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * This request attempt owns the key (as `owner`) and resumes from `recoveryPoint`; `paymentId` and `refundId` are
 * what the request committed so far (a refund request records both at REFUND_CREATED).
 */
public record KeyClaim(IdempotentRequest request, UUID owner, RecoveryPoint recoveryPoint, @Nullable String paymentId,
                       @Nullable String refundId) {

    public KeyClaim(IdempotentRequest request, UUID owner, RecoveryPoint recoveryPoint, @Nullable String paymentId) {
        this(request, owner, recoveryPoint, paymentId, null);
    }
}
