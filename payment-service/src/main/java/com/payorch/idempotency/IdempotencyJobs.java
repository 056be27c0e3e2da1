package com.payorch.idempotency;

import com.payorch.jobs.PeriodicJob;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The expired-key clean-up on its own {@link PeriodicJob} loop: first run one `cleanup-interval` after the start. */
@Configuration(proxyBeanMethods = false)
class IdempotencyJobs {

    @Bean
    PeriodicJob idempotencyCleanupJob(ExpiredKeyCleanup cleanup, IdempotencyProperties properties) {
        return new PeriodicJob("idempotency-cleanup", properties.cleanupInterval(), properties.cleanupInterval(),
                cleanup::deleteExpiredKeys);
    }
}
