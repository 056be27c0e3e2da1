package com.payorch.merchantwebhooks;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * `payments.merchant-webhooks.*`, defaults in code:
 * <ul>
 * <li>`give-up-after` (P3D): after this long since an event's first attempt, a failed attempt gets no successor and
 *     the delivery stays `failed`;</li>
 * <li>`timeout` (PT10S): a delivery succeeds on a 2xx answer within this; it bounds connecting and the answer;</li>
 * <li>`initial-backoff` (PT5S), `max-backoff` (PT1H): the wait after the n-th failed attempt is
 *     `initial-backoff` × 2^(n-1), capped at `max-backoff`;</li>
 * <li>`poll-interval` (PT0.5S), `batch-size` (20): how often due attempts are claimed, and how many at once;</li>
 * <li>`lease` (PT1M): how long a claimed attempt is this instance's; it must be longer than `timeout`, so that no
 *     other instance sends the same attempt while this one may still be sending it;</li>
 * <li>`metrics-refresh` (PT10S): how often the oldest-undelivered gauge is read from the database.</li>
 * </ul>
 */
@ConfigurationProperties("payments.merchant-webhooks")
public record MerchantWebhookProperties(Duration giveUpAfter, Duration timeout, Duration initialBackoff,
                                        Duration maxBackoff, Duration pollInterval, int batchSize, Duration lease,
                                        Duration metricsRefresh) {

    public MerchantWebhookProperties {
        giveUpAfter = giveUpAfter != null ? giveUpAfter : Duration.ofDays(3);
        timeout = timeout != null ? timeout : Duration.ofSeconds(10);
        initialBackoff = initialBackoff != null ? initialBackoff : Duration.ofSeconds(5);
        maxBackoff = maxBackoff != null ? maxBackoff : Duration.ofHours(1);
        pollInterval = pollInterval != null ? pollInterval : Duration.ofMillis(500);
        batchSize = batchSize > 0 ? batchSize : 20;
        lease = lease != null ? lease : Duration.ofMinutes(1);
        metricsRefresh = metricsRefresh != null ? metricsRefresh : Duration.ofSeconds(10);
        if (lease.compareTo(timeout) <= 0) {
            throw new IllegalArgumentException("payments.merchant-webhooks.lease (" + lease + ") must be longer than"
                    + " payments.merchant-webhooks.timeout (" + timeout + "): otherwise another instance may send an"
                    + " attempt that is still being sent here");
        }
    }

    /** The wait after the `attempt`-th failed attempt: initial, 2×, 4×, … capped at max-backoff. */
    public Duration backoffAfter(int attempt) {
        int doublings = Math.max(0, attempt - 1);
        if (doublings >= 40) {
            return maxBackoff;
        }
        Duration backoff = initialBackoff.multipliedBy(1L << doublings);
        return backoff.compareTo(maxBackoff) > 0 ? maxBackoff : backoff;
    }
}
