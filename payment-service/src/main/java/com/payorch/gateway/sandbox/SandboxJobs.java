package com.payorch.gateway.sandbox;

import com.payorch.jobs.BatchedDelete;
import com.payorch.jobs.PeriodicJob;
import com.payorch.jobs.RetentionProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The sandbox gateway's background jobs, each on its own {@link PeriodicJob} loop: settlement and webhook
 * deliveries every `poll-interval` (first run one interval after the start), and the retention of old charges every
 * `payments.retention.interval`.
 */
@Configuration(proxyBeanMethods = false)
class SandboxJobs {

    @Bean
    PeriodicJob sandboxSettlementJob(SandboxSettlement settlement, SandboxGatewayProperties properties) {
        return new PeriodicJob("sandbox-settlement", properties.pollInterval(), properties.pollInterval(),
                settlement::settleDueChargesQuietly);
    }

    @Bean
    PeriodicJob sandboxWebhooksJob(SandboxWebhookDispatcher dispatcher, SandboxGatewayProperties properties) {
        return new PeriodicJob("sandbox-webhooks", properties.pollInterval(), properties.pollInterval(),
                dispatcher::startDueDeliveries);
    }

    @Bean
    PeriodicJob sandboxChargeRetentionJob(SandboxChargeRetention charges, SandboxGatewayProperties properties,
                                          RetentionProperties retention) {
        return new PeriodicJob("sandbox-charge-retention", retention.interval(), retention.interval(),
                () -> BatchedDelete.untilShort("sandbox charges past their retention", retention.batchSize(),
                        () -> charges.deleteOlderThan(properties.retention(), retention.batchSize())));
    }
}
