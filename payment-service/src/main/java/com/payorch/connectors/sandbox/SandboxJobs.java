package com.payorch.connectors.sandbox;

import com.payorch.jobs.BatchedDelete;
import com.payorch.jobs.PeriodicJob;
import com.payorch.jobs.RetentionProperties;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import reactor.core.publisher.Mono;

/**
 * The sandbox gateway's background jobs, each on its own {@link PeriodicJob} loop: settlement and webhook
 * deliveries every `poll-interval` (first run one interval after the start), and the retention of old charges every
 * `payments.retention.interval`.
 */
@Configuration(proxyBeanMethods = false)
class SandboxJobs {

    /**
     * Settles what is due, wakes the webhook deliveries when it settled something, and wakes itself when the next
     * waiting charge is due before its next poll; a new charge with nothing else waiting wakes it by notification
     * (`webhook-delay` later, when the charge is due).
     */
    @Bean
    PeriodicJob sandboxSettlementJob(SandboxSettlement settlement, SandboxGatewayProperties properties,
                                     @Qualifier("sandboxWebhooksJob") PeriodicJob webhooks) {
        AtomicReference<PeriodicJob> self = new AtomicReference<>();
        self.set(new PeriodicJob("sandbox-settlement", properties.pollInterval(), properties.pollInterval(),
                () -> settlement.settleDueChargesQuietly()
                        .doOnNext(settled -> {
                            if (settled > 0) {
                                webhooks.wake();
                            }
                        })
                        .then(settlement.nextDueIn().onErrorResume(e -> Mono.empty()))
                        .filter(left -> left.compareTo(properties.pollInterval()) < 0)
                        .doOnNext(left -> self.get().wakeAfter(left)))
                .wakesOn("sandbox", properties.webhookDelay()));
        return self.get();
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
