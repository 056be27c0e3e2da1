package com.payorch.idempotency;

import com.payorch.support.Refusal;

/** The key was first used for a different request (method, path or body). */
public class IdempotencyKeyReused extends Refusal {

    public IdempotencyKeyReused() {
        super("idempotency_key_reused",
                "This Idempotency-Key was used for a different request; use a new key for a new request.");
    }
}
