package com.payorch.recovery;

import com.payorch.support.Settings;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code payments.recovery.*}: the jobs that resubmit stuck PENDING payments and settle stuck PROCESSING ones.
 *
 * @param pendingAfter    PENDING payments not submitted by then are resubmitted (same gateway idempotency key).
 * @param processingAfter PROCESSING payments with no outcome by then are settled by asking the gateway.
 * @param interval        How often both jobs look (read by the jobs' schedules).
 * @param batchSize       How many payments one look takes.
 */
@ConfigurationProperties("payments.recovery")
public record RecoveryProperties(@DefaultValue("PT30S") Duration pendingAfter,
                                 @DefaultValue("PT5M") Duration processingAfter,
                                 Duration interval,
                                 @DefaultValue("20") int batchSize) {

    public RecoveryProperties {
        interval = interval != null ? interval : Duration.ofSeconds(5);
        Settings.positive("payments.recovery.batch-size", batchSize);
    }
}
