package com.payorch.ratelimit;

import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * One {@link TokenBucket} per API key (per merchant: each has one key), in this instance's memory. Only
 * authenticated requests reach it, so the number of buckets is bounded by the configured merchants.
 */
@Component
public class RateLimiter {

    private final RateLimitProperties properties;
    private final LongSupplier nanoTime;
    private final Map<String, TokenBucket> buckets = new ConcurrentHashMap<>();

    @Autowired
    public RateLimiter(RateLimitProperties properties) {
        this(properties, System::nanoTime);
    }

    RateLimiter(RateLimitProperties properties, LongSupplier nanoTime) {
        this.properties = properties;
        this.nanoTime = nanoTime;
    }

    public boolean enabled() {
        return properties.enabled();
    }

    /** Empty when the key's request may go (a token is taken); else how many whole seconds until it may retry. */
    public OptionalLong refuse(String apiKeyOwner) {
        if (!properties.enabled()) {
            return OptionalLong.empty();
        }
        long waitNanos = buckets.computeIfAbsent(apiKeyOwner,
                owner -> new TokenBucket(properties.capacity(), properties.requestsPerSecond(), nanoTime)).tryTake();
        return waitNanos == 0 ? OptionalLong.empty()
                : OptionalLong.of(Math.max(1, (waitNanos + 999_999_999L) / 1_000_000_000L));
    }
}
