package com.payorch.gateway.sandbox;

import com.payorch.jobs.PeriodicJob;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The sandbox gateway's background jobs, each on its own {@link PeriodicJob} loop: settlement and webhook
 * deliveries every `poll-interval` (first run one interval after the start).
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
}
