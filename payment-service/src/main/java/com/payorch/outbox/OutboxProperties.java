package com.payorch.outbox;

import com.payorch.support.Settings;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code payments.outbox.*}: how the relay delivers outbox events.
 *
 * @param pollInterval   How often each instance's relay looks for due events (read by the relay's schedule).
 * @param batchSize      How many events one batch claims.
 * @param concurrency    How many deliveries of a batch run at once.
 * @param lease          How long a claim lasts before another instance may take the event over.
 * @param initialBackoff The wait after a first failed delivery, doubled for each further attempt.
 * @param maxBackoff     The longest wait between two deliveries of one event.
 * @param backlogRefresh How often the payments.outbox.backlog gauge is read from the database (read by the
 *                       gauge's schedule).
 */
@ConfigurationProperties("payments.outbox")
public record OutboxProperties(Duration pollInterval,
                               @DefaultValue("50") int batchSize,
                               @DefaultValue("4") int concurrency,
                               @DefaultValue("PT1M") Duration lease,
                               @DefaultValue("PT1S") Duration initialBackoff,
                               @DefaultValue("PT5M") Duration maxBackoff,
                               Duration backlogRefresh) {

    /** Also the `@Scheduled` default, which cannot read this record. */
    public static final String DEFAULT_POLL_INTERVAL = "PT0.2S";
    public static final String DEFAULT_BACKLOG_REFRESH = "PT10S";

    public OutboxProperties {
        pollInterval = pollInterval != null ? pollInterval : Duration.parse(DEFAULT_POLL_INTERVAL);
        backlogRefresh = backlogRefresh != null ? backlogRefresh : Duration.parse(DEFAULT_BACKLOG_REFRESH);
        Settings.positive("payments.outbox.batch-size", batchSize);
        Settings.positive("payments.outbox.concurrency", concurrency);
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
