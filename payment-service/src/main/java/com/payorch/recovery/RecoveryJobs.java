package com.payorch.recovery;

import com.payorch.jobs.BatchedDelete;
import com.payorch.jobs.PeriodicJob;
import com.payorch.jobs.RetentionProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The recovery jobs, each on its own {@link PeriodicJob} loop: resubmit and reconcile, resend the holds' captures and
 * cancels, apply the holds' expiry policy, expire
 * customer actions waited on too long every `interval` (first run one interval after the start), and the
 * retention of run-out `work_claims` every `payments.retention.interval`.
 */
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

    @Bean
    PeriodicJob recoveryRefundsJob(RefundReconciler reconciler, RecoveryProperties properties) {
        return new PeriodicJob("recovery-refunds", properties.interval(), properties.interval(),
                reconciler::settlePending);
    }

    @Bean
    PeriodicJob holdCapturesJob(HoldRecovery recovery, RecoveryProperties properties) {
        return new PeriodicJob("hold-captures", properties.interval(), properties.interval(),
                recovery::resendCaptures);
    }

    @Bean
    PeriodicJob holdCancelsJob(HoldRecovery recovery, RecoveryProperties properties) {
        return new PeriodicJob("hold-cancels", properties.interval(), properties.interval(),
                recovery::resendCancels);
    }

    @Bean
    PeriodicJob holdExpiryJob(HoldExpiry expiry, RecoveryProperties properties) {
        return new PeriodicJob("hold-expiry", properties.interval(), properties.interval(), expiry::applyPolicy);
    }

    @Bean
    PeriodicJob customerActionExpiryJob(CustomerActionExpiry expiry, RecoveryProperties properties) {
        return new PeriodicJob(CustomerActionExpiry.KIND, properties.interval(), properties.interval(),
                expiry::expireOverdue);
    }

    @Bean
    PeriodicJob workClaimRetentionJob(WorkClaims claims, RecoveryProperties properties, RetentionProperties retention) {
        return new PeriodicJob("work-claim-retention", retention.interval(), retention.interval(),
                () -> BatchedDelete.untilShort("run-out work claims", retention.batchSize(),
                        () -> claims.deleteExpired(properties.claimRetention(), retention.batchSize())));
    }
}
