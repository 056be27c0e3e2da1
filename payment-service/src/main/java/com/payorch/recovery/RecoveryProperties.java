package com.payorch.recovery;

import com.payorch.support.Settings;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code payments.recovery.*}: the jobs that resubmit stuck PENDING payments and settle stuck PROCESSING ones.
 *
 * @param pendingAfter    PENDING payments not submitted by then are resubmitted (same gateway idempotency key); a
 *                        hold's capture or cancel with no outcome by then is sent again (same connector key).
 * @param processingAfter PROCESSING payments with no outcome by then are settled by asking the gateway (and
 *                        resubmitted when it holds no charge for the attempt).
 * @param giveUpAfter     A payment still PENDING this long after its attempt began becomes FAILED with
 *                        gateway_unreachable (unless the gateway holds a charge for it), which frees its booking. A
 *                        hold's cancel unconfirmed this long needs attention (and is still sent again).
 * @param interval        How often each recovery job looks (the holds' capture, cancel and expiry jobs too).
 * @param batchSize       How many payments one look takes.
 * @param claimRetention  A lease in work_claims that ran out longer ago than this is deleted by the retention job (a
 *                        run-out lease means the same as none; this only keeps the table small).
 * @param refundPendingAfter A refund still PENDING this long after its last change is asked of its connector (and
 *                        sent again, same idempotency key, when the connector does not know it); an orphaned
 *                        charge's refund is first sent this way.
 * @param reconcileBackoffMax A PROCESSING payment the reconciler could not settle is looked at again after half the
 *                        time its attempt has waited, never sooner than processing-after and never later than this:
 *                        payments a connector cannot settle (an Adyen `Received` whose notification never comes) do
 *                        not take every look from those a look-up can settle.
 */
@ConfigurationProperties("payments.recovery")
public record RecoveryProperties(@DefaultValue("PT30S") Duration pendingAfter,
                                 @DefaultValue("PT5M") Duration processingAfter,
                                 @DefaultValue("PT24H") Duration giveUpAfter,
                                 @DefaultValue("PT5S") Duration interval,
                                 @DefaultValue("20") int batchSize,
                                 @DefaultValue("PT1H") Duration claimRetention,
                                 @DefaultValue("PT5S") Duration refundPendingAfter,
                                 @DefaultValue("PT1H") Duration reconcileBackoffMax) {

    public RecoveryProperties {
        Settings.positive("payments.recovery.batch-size", batchSize);
        if (reconcileBackoffMax.compareTo(processingAfter) < 0) {
            throw new IllegalArgumentException("payments.recovery.reconcile-backoff-max (" + reconcileBackoffMax
                    + ") must not be shorter than payments.recovery.processing-after (" + processingAfter + ")");
        }
    }
}
