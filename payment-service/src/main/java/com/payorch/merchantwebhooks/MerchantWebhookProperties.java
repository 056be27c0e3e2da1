package com.payorch.merchantwebhooks;

import com.payorch.support.Settings;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code payments.merchant-webhooks.*}: how events are pushed to merchants.
 *
 * @param giveUpAfter    After this long since an event's first attempt, a failed attempt gets no successor and the
 *                       delivery stays failed.
 * @param timeout        A delivery succeeds on a 2xx answer within this; it bounds connecting and the answer.
 * @param initialBackoff The wait after the first failed attempt, doubled per further attempt.
 * @param maxBackoff     The longest wait between two attempts.
 * @param pollInterval   How often due attempts are claimed.
 * @param batchSize      How many due attempts one claim takes.
 * @param lease          How long a claimed attempt is this instance's; it must be longer than timeout, so that no
 *                       other instance sends the same attempt while this one may still be sending it.
 * @param metricsRefresh How often the oldest-undelivered gauge is read from the database.
 */
@ConfigurationProperties("payments.merchant-webhooks")
public record MerchantWebhookProperties(@DefaultValue("P3D") Duration giveUpAfter,
                                        @DefaultValue("PT10S") Duration timeout,
                                        @DefaultValue("PT5S") Duration initialBackoff,
                                        @DefaultValue("PT1H") Duration maxBackoff,
                                        @DefaultValue("PT0.5S") Duration pollInterval,
                                        @DefaultValue("20") int batchSize,
                                        @DefaultValue("PT1M") Duration lease,
                                        @DefaultValue("PT10S") Duration metricsRefresh) {

    public MerchantWebhookProperties {
        Settings.positive("payments.merchant-webhooks.batch-size", batchSize);
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
