package com.payorch.jobs;

import com.payorch.support.Settings;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code payments.retention.*}: how the retention jobs run (webhook receipts, work claims, sandbox charges; each
 * feature says how long its rows are kept).
 *
 * @param interval  The wait after one clean-up before the next, per job.
 * @param batchSize Rows per delete statement, so no transaction grows large; a full batch is followed at once by the
 *                  next.
 */
@ConfigurationProperties("payments.retention")
public record RetentionProperties(@DefaultValue("PT1H") Duration interval, @DefaultValue("1000") int batchSize) {

    public RetentionProperties {
        Settings.positive("payments.retention.batch-size", batchSize);
    }
}
