package com.payorch.outbox;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * `payments.outbox.*`, defaults in code: how often the relay polls, how many events it claims at once and delivers
 * in parallel, how long a claim lasts before another instance may take the event over, and the retry backoff
 * (`initial-backoff` doubled per attempt, at most `max-backoff`). `backlog-refresh`: how often the backlog gauge
 * is read from the database.
 */
@ConfigurationProperties("payments.outbox")
public record OutboxProperties(Duration pollInterval, int batchSize, int concurrency, Duration lease,
                               Duration initialBackoff, Duration maxBackoff, Duration backlogRefresh) {

    /** Also the `@Scheduled` default, which cannot read this record. */
    public static final String DEFAULT_POLL_INTERVAL = "PT0.2S";
    public static final String DEFAULT_BACKLOG_REFRESH = "PT10S";

    public OutboxProperties {
        pollInterval = pollInterval != null ? pollInterval : Duration.parse(DEFAULT_POLL_INTERVAL);
        batchSize = batchSize > 0 ? batchSize : 50;
        concurrency = concurrency > 0 ? concurrency : 4;
        lease = lease != null ? lease : Duration.ofMinutes(1);
        initialBackoff = initialBackoff != null ? initialBackoff : Duration.ofSeconds(1);
        maxBackoff = maxBackoff != null ? maxBackoff : Duration.ofMinutes(5);
        backlogRefresh = backlogRefresh != null ? backlogRefresh : Duration.parse(DEFAULT_BACKLOG_REFRESH);
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
