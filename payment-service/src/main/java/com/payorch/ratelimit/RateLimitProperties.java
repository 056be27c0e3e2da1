package com.payorch.ratelimit;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code payments.rate-limit.*}: a limit per API key, held in memory by each instance (so with n instances behind a
 * load balancer a key gets up to n times the limit).
 *
 * @param requestsPerSecond {@code requests-per-second} (default {@code 0}: no limit): the sustained rate a key may
 *                          send, any fraction (e.g. {@code 0.5} is one request every two seconds)
 * @param burst             {@code burst} (default {@code 0}: the rate rounded up, at least 1): how many requests a key
 *                          may send at once after a quiet spell
 */
@ConfigurationProperties("payments.rate-limit")
public record RateLimitProperties(double requestsPerSecond, int burst) {

    public RateLimitProperties {
        if (requestsPerSecond < 0 || Double.isNaN(requestsPerSecond) || Double.isInfinite(requestsPerSecond)) {
            throw new IllegalArgumentException("payments.rate-limit.requests-per-second must be 0 (off) or positive");
        }
        if (burst < 0) {
            throw new IllegalArgumentException("payments.rate-limit.burst must be 0 (the rate) or positive");
        }
    }

    public boolean enabled() {
        return requestsPerSecond > 0;
    }

    /** The bucket's capacity: {@code burst}, or the rate rounded up (at least 1) when {@code burst} is 0. */
    public int capacity() {
        return burst > 0 ? burst : (int) Math.max(1, Math.ceil(requestsPerSecond));
    }
}
