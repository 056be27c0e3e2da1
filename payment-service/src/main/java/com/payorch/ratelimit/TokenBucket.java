package com.payorch.ratelimit;

import java.util.function.LongSupplier;

/**
 * A token bucket: holds at most {@code capacity} tokens, gains {@code tokensPerSecond} per second, and each allowed
 * request takes one. A refused request takes nothing. Time comes from an injected nanosecond clock.
 */
public final class TokenBucket {

    private static final double NANOS_PER_SECOND = 1_000_000_000.0;

    private final double capacity;
    private final double tokensPerNano;
    private final LongSupplier nanoTime;
    private double tokens;
    private long lastRefill;

    public TokenBucket(int capacity, double tokensPerSecond, LongSupplier nanoTime) {
        if (capacity < 1 || !(tokensPerSecond > 0)) {
            throw new IllegalArgumentException("a bucket needs a capacity of at least 1 and a positive rate");
        }
        this.capacity = capacity;
        this.tokensPerNano = tokensPerSecond / NANOS_PER_SECOND;
        this.nanoTime = nanoTime;
        this.tokens = capacity;
        this.lastRefill = nanoTime.getAsLong();
    }

    /** Takes a token: 0 when the request may go, else the nanoseconds until a token will be there. */
    public synchronized long tryTake() {
        long now = nanoTime.getAsLong();
        tokens = Math.min(capacity, tokens + (now - lastRefill) * tokensPerNano);
        lastRefill = now;
        if (tokens >= 1) {
            tokens -= 1;
            return 0;
        }
        return Math.max(1, (long) Math.ceil((1 - tokens) / tokensPerNano));
    }
}
