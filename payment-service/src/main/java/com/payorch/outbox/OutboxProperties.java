package com.payorch.outbox;

import com.payorch.support.Settings;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code payments.outbox.*}: how the relay delivers outbox events.
 *
 * @param pollInterval    How long the relay waits after a run before the next one.
 * @param batchSize       How many events one batch claims.
 * @param concurrency     How many deliveries of a batch run at once.
 * @param lease           How long a claim lasts before another instance may take the event over; it must be longer
 *                        than delivery-timeout, or an event still being delivered here could be delivered by another
 *                        instance at the same time, so a shorter one stops the start.
 * @param initialBackoff  The wait after a first failed delivery, doubled for each further attempt.
 * @param maxBackoff      The longest wait between two deliveries of one event.
 * @param backlogRefresh  How often the payments.outbox.backlog gauge is read from the database.
 * @param deliveryTimeout How long one event's delivery to its consumers may take before the relay stops waiting,
 *                        counts it as failed and schedules the next attempt (a consumer's own work, e.g. an e-mail
 *                        being sent, may finish later: consumers are idempotent).
 * @param maxAttempts     How many failed deliveries an event gets before it is parked as a dead letter: no longer
 *                        retried, counted by the payments.outbox.parked gauge, listed and requeued through the
 *                        actuator's outbox endpoint.
 */
@ConfigurationProperties("payments.outbox")
public record OutboxProperties(@DefaultValue("PT0.2S") Duration pollInterval,
                               @DefaultValue("50") int batchSize,
                               @DefaultValue("4") int concurrency,
                               @DefaultValue("PT1M") Duration lease,
                               @DefaultValue("PT1S") Duration initialBackoff,
                               @DefaultValue("PT5M") Duration maxBackoff,
                               @DefaultValue("PT10S") Duration backlogRefresh,
                               @DefaultValue("PT30S") Duration deliveryTimeout,
                               @DefaultValue("20") int maxAttempts) {

    public OutboxProperties {
        Settings.positive("payments.outbox.max-attempts", maxAttempts);
        Settings.positive("payments.outbox.batch-size", batchSize);
        Settings.positive("payments.outbox.concurrency", concurrency);
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
