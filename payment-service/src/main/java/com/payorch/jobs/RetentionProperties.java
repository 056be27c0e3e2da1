package com.payorch.jobs;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * `payments.retention.*`: how the retention jobs run (webhook receipts, work claims, sandbox charges; each feature
 * says how long its rows are kept). `interval` (PT1H): the wait after one clean-up before the next, per job;
 * `batch-size` (1000): rows per delete statement, so no transaction grows large; a full batch is followed at once by
 * the next.
 */
@ConfigurationProperties("payments.retention")
public record RetentionProperties(Duration interval, int batchSize) {

    public RetentionProperties {
        interval = interval != null ? interval : Duration.ofHours(1);
        batchSize = batchSize > 0 ? batchSize : 1000;
    }
}
