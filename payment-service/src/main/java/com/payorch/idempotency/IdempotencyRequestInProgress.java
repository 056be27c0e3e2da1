package com.payorch.idempotency;

import com.payorch.support.Refusal;

/** The first request with this key is still executing; the client should retry after {@link #retryAfterSeconds()}. */
public class IdempotencyRequestInProgress extends Refusal {

    private final int retryAfterSeconds;

    public IdempotencyRequestInProgress(String detail, int retryAfterSeconds) {
        super(detail);
        this.retryAfterSeconds = retryAfterSeconds;
    }

    public int retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
