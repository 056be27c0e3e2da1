package com.payorch.recovery;

import com.payorch.jobs.PeriodicJob;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The recovery jobs, each on its own {@link PeriodicJob} loop: first run one `interval` after the start. */
@Configuration(proxyBeanMethods = false)
class RecoveryJobs {

    @Bean
    PeriodicJob recoveryResubmitJob(StuckPaymentRecovery recovery, RecoveryProperties properties) {
        return new PeriodicJob("recovery-resubmit", properties.interval(), properties.interval(),
                recovery::resubmitPending);
    }

    @Bean
    PeriodicJob recoveryReconcileJob(StuckPaymentRecovery recovery, RecoveryProperties properties) {
        return new PeriodicJob("recovery-reconcile", properties.interval(), properties.interval(),
                recovery::reconcileProcessing);
    }
}
