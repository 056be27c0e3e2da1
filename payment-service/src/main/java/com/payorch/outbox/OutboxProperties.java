package com.payorch.outbox;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * `payments.outbox.*`, defaults in code:
 * <ul>
 * <li>`poll-interval` (PT0.2S): how long the relay waits after a run before the next one;</li>
 * <li>`batch-size` (50), `concurrency` (4): events claimed at once, and delivered in parallel;</li>
 * <li>`delivery-timeout` (PT30S): how long one event's delivery to its consumers may take before the relay stops
 *     waiting, counts it as failed and schedules the next attempt (a consumer's own work, e.g. an e-mail being
 *     sent, may finish later: consumers are idempotent);</li>
 * <li>`lease` (PT1M): how long a claim lasts before another instance may take the event over; it must be longer
 *     than `delivery-timeout`, or an event still being delivered here could be delivered by another instance at the
 *     same time, so a shorter one stops the start;</li>
 * <li>`initial-backoff` (PT1S), `max-backoff` (PT5M): the retry backoff, `initial-backoff` doubled per attempt up
 *     to `max-backoff`;</li>
 * <li>`backlog-refresh` (PT10S): how often the backlog gauge is read from the database.</li>
 * </ul>
 */
@ConfigurationProperties("payments.outbox")
public record OutboxProperties(Duration pollInterval, int batchSize, int concurrency, Duration lease,
                               Duration initialBackoff, Duration maxBackoff, Duration backlogRefresh,
                               Duration deliveryTimeout) {

    public OutboxProperties {
        pollInterval = pollInterval != null ? pollInterval : Duration.ofMillis(200);
        batchSize = batchSize > 0 ? batchSize : 50;
        concurrency = concurrency > 0 ? concurrency : 4;
        lease = lease != null ? lease : Duration.ofMinutes(1);
        initialBackoff = initialBackoff != null ? initialBackoff : Duration.ofSeconds(1);
        maxBackoff = maxBackoff != null ? maxBackoff : Duration.ofMinutes(5);
        backlogRefresh = backlogRefresh != null ? backlogRefresh : Duration.ofSeconds(10);
        deliveryTimeout = deliveryTimeout != null ? deliveryTimeout : Duration.ofSeconds(30);
        if (lease.compareTo(deliveryTimeout) <= 0) {
            throw new IllegalArgumentException("payments.outbox.lease (" + lease + ") must be longer than"
                    + " payments.outbox.delivery-timeout (" + deliveryTimeout + "): otherwise another instance may"
                    + " take over an event whose delivery is still running here and deliver it a second time");
        }
    }

    /** The wait after the `attempts`-th failed delivery: initial, 2×, 4×, … capped at max-backoff. */
    public Duration backoffAfter(int attempts) {
        int doublings = Math.max(0, attempts - 1);
        if (doublings >= 62) {
            return maxBackoff;
        }
        try {
            Duration backoff = initialBackoff.multipliedBy(1L << doublings);
            return backoff.compareTo(maxBackoff) > 0 ? maxBackoff : backoff;
        } catch (ArithmeticException overflow) {
            return maxBackoff;
        }
    }
}
