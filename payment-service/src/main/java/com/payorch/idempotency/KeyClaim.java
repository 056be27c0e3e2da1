package com.payorch.idempotency;

import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * This request attempt owns the key (as `owner`) and resumes from `recoveryPoint` ({@link RecoveryPoint#STARTED} or
 * a step the caller named); `resourceId` is what the caller committed at that step (e.g. the payment's id), null at
 * STARTED.
 */
public record KeyClaim(IdempotentRequest request, UUID owner, String recoveryPoint, @Nullable String resourceId) {
}
