package com.payorch.merchantwebhooks;

import com.payorch.jobs.PeriodicJob;
import java.time.Duration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The merchant webhooks' background jobs, each on its own {@link PeriodicJob} loop. */
@Configuration(proxyBeanMethods = false)
class MerchantWebhookJobs {

    @Bean
    PeriodicJob merchantWebhookDeliveryJob(MerchantWebhookDispatcher dispatcher, MerchantWebhookProperties properties) {
        return new PeriodicJob("merchant-webhooks", Duration.ZERO, properties.pollInterval(), dispatcher::deliverDue)
                .wakesOn("merchant_webhooks", Duration.ZERO);
    }

    @Bean
    PeriodicJob merchantWebhookMetricsJob(MerchantWebhookDispatcher dispatcher, MerchantWebhookProperties properties) {
        return new PeriodicJob("merchant-webhook-metrics", Duration.ZERO, properties.metricsRefresh(),
                dispatcher::refreshOldestUndelivered);
    }
}
