package com.payorch.webhooks;

import com.payorch.jobs.BatchedDelete;
import com.payorch.jobs.PeriodicJob;
import com.payorch.jobs.RetentionProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The retention of webhook receipts on its own {@link PeriodicJob} loop, every `payments.retention.interval`. */
@Configuration(proxyBeanMethods = false)
class WebhookJobs {

    @Bean
    PeriodicJob webhookReceiptRetentionJob(WebhookReceipts receipts, WebhookProperties properties,
                                           RetentionProperties retention) {
        return new PeriodicJob("webhook-receipt-retention", retention.interval(), retention.interval(),
                () -> BatchedDelete.untilShort("webhook receipts past their retention", retention.batchSize(),
                        () -> receipts.deleteOlderThan(properties.receiptRetention(), retention.batchSize())));
    }
}
