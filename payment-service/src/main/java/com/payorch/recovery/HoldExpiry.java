package com.payorch.recovery;

import com.payorch.payments.AttemptReferences;
import com.payorch.payments.CaptureProperties;
import com.payorch.payments.CaptureProperties.ExpiryPolicy;
import com.payorch.payments.InvalidTransition;
import com.payorch.payments.Payment;
import com.payorch.payments.PaymentChange;
import com.payorch.payments.PaymentQueries;
import com.payorch.payments.PaymentStateChanges;
import com.payorch.payments.RetryingTransaction;
import com.payorch.payments.TransitionOrigin;
import com.payorch.payments.TransitionSource;
import com.payorch.statemachine.PaymentStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * A hold is never left to lapse unseen: {@code payments.capture.expiry-margin} before an AUTHORIZED payment's
 * authorisation lapses, its merchant's {@code on-expiry} policy ({@link ExpiryPolicies}) is applied once, origin
 * RECOVERY / {@value StuckHolds#EXPIRY}:
 * <ul>
 *   <li>{@code cancel}: the cancel recorded (so no capture can follow), then sent; CANCELLED when the connector
 *       confirms, which cancels the booking;</li>
 *   <li>{@code capture}: a capture of all of it recorded (CAPTURING), then sent; COMPLETED when the connector
 *       confirms.</li>
 * </ul>
 * Whatever is left unanswered is the hold recovery's to send again ({@link HoldRecovery}). A capture on expiry that
 * the connector refused is not started again: the payment (AUTHORIZED again, lapsing soon) needs a person. Each
 * action is one versioned write against the payment as re-read, so a merchant's own capture or cancel, or another
 * instance's run, wins or loses cleanly; a lease keeps instances from even trying the same payment at once.
 */
@Component
public class HoldExpiry {

    static final String KIND = "hold-expiry";
    static final String CANCEL_REASON = "authorization_expiring";
    static final String CAPTURE_ON_EXPIRY_FAILED = "the capture on expiry failed; the authorisation lapses soon:"
            + " capture or cancel it";
    static final TransitionOrigin ORIGIN = new TransitionOrigin(TransitionSource.RECOVERY, StuckHolds.EXPIRY);

    private static final Logger log = LoggerFactory.getLogger(HoldExpiry.class);

    private final StuckHolds holds;
    private final ExpiryPolicies policies;
    private final CaptureProperties capture;
    private final RecoveryProperties properties;
    private final PaymentQueries payments;
    private final PaymentStateChanges stateChanges;
    private final RetryingTransaction transaction;
    private final HoldSends sends;
    private final WorkClaims claims;
    private final AttemptReferences attempts;
    private final HoldMetrics metrics;

    HoldExpiry(StuckHolds holds, ExpiryPolicies policies, CaptureProperties capture, RecoveryProperties properties,
               PaymentQueries payments, PaymentStateChanges stateChanges, RetryingTransaction transaction,
               HoldSends sends, WorkClaims claims, AttemptReferences attempts, HoldMetrics metrics) {
        this.holds = holds;
        this.policies = policies;
        this.capture = capture;
        this.properties = properties;
        this.payments = payments;
        this.stateChanges = stateChanges;
        this.transaction = transaction;
        this.sends = sends;
        this.claims = claims;
        this.attempts = attempts;
        this.metrics = metrics;
    }

    /** One look: the gauge counted, the policy applied to a batch of holds about to lapse. */
    public Mono<Long> applyPolicy() {
        return holds.countExpiring(capture.expiryMargin())
                .doOnNext(metrics::expiring)
                .then(attentionForFailedCaptures())
                .thenMany(holds.expiring(capture.expiryMargin(), KIND, properties.batchSize()))
                .concatMap(held -> claims.claim(KIND, held.payment().id(), properties.pendingAfter())
                        .filter(Boolean::booleanValue)
                        .flatMap(claimed -> act(held.payment()))
                        .onErrorResume(e -> {
                            log.warn("Payment {}: the expiry policy could not be applied now ({}); the next run"
                                    + " tries again", held.payment().id(), e.toString());
                            return Mono.empty();
                        }))
                .count()
                .onErrorResume(e -> {
                    log.warn("The hold expiry job failed; the next run tries again: {}", e.toString());
                    return Mono.just(0L);
                });
    }

    Mono<Payment> act(Payment found) {
        ExpiryPolicy policy = policies.of(found.merchantId());
        Mono<Payment> recorded = transaction.run(() -> payments.findAnyMerchant(found.id())
                        .filter(HoldExpiry::untouched)
                        .flatMap(current -> policy == ExpiryPolicy.CANCEL
                                ? stateChanges.requestCancel(current, CANCEL_REASON)
                                : stateChanges.startCapture(current, current.amount(), ORIGIN)
                                        .map(PaymentChange::payment)))
                .onErrorResume(InvalidTransition.class, lost -> Mono.empty()) // a merchant's request came first
                .doOnNext(payment -> {
                    metrics.expiryAction(policy.value());
                    log.info("Payment {}: authorisation lapses at {}; {} on expiry (merchant {})", payment.id(),
                            payment.hold().expiresAt(), policy.value(), payment.merchantId());
                });
        return recorded.flatMap(payment -> policy == ExpiryPolicy.CANCEL
                ? sends.cancel(payment, outcome -> ORIGIN)
                : sends.capture(payment, outcome -> ORIGIN));
    }

    /** Still what the expiry job found: AUTHORIZED, nothing in flight, no cancel recorded. */
    private static boolean untouched(Payment current) {
        return current.status() == PaymentStatus.AUTHORIZED && current.hold().captureAmount() == null
                && !current.hold().cancelRequested();
    }

    private Mono<Void> attentionForFailedCaptures() {
        return holds.expiryCaptureFailed(capture.expiryMargin(), properties.batchSize())
                .concatMap(payment -> attempts.holdNeedsAttention(payment, CAPTURE_ON_EXPIRY_FAILED
                        + (payment.failureReason() == null ? "" : " (" + payment.failureReason() + ")")))
                .then();
    }
}
