package com.payorch.idempotency;

import com.payorch.support.Refusal;
import java.util.Map;

/** The first request with this key is still executing; the client should retry after {@link #retryAfterSeconds()}. */
public class IdempotencyRequestInProgress extends Refusal {

    private final int retryAfterSeconds;

    public IdempotencyRequestInProgress(String detail, int retryAfterSeconds) {
        super("idempotency_request_in_progress", detail);
        this.retryAfterSeconds = retryAfterSeconds;
    }

    public int retryAfterSeconds() {
        return retryAfterSeconds;
    }

    @Override
    public Map<String, String> headers() {
        return Map.of("Retry-After", Integer.toString(retryAfterSeconds));
    }
}
