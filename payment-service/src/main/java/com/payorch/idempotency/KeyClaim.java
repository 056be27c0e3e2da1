package com.payorch.idempotency;

import java.util.UUID;

/** This request attempt owns the key (as `owner`) and resumes from `recoveryPoint`. */
public record KeyClaim(IdempotentRequest request, UUID owner, RecoveryPoint recoveryPoint, String paymentId) {
}
