package com.payorch.recovery;

import com.payorch.gateway.GatewayException;
import com.payorch.gateway.GatewayStatus;
import com.payorch.gateway.PaymentGateway;
import com.payorch.gateway.RefundOutcome;
import com.payorch.payments.RetryingTransaction;
import com.payorch.refunds.IdempotentRefundFlow;
import com.payorch.refunds.Refund;
import com.payorch.refunds.RefundQueries;
import com.payorch.refunds.RefundSends;
import com.payorch.refunds.Refunds;
import com.payorch.support.Timestamps;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * No refund stays PENDING unnoticed, and no orphaned charge's refund is given up. Every `payments.recovery.interval`:
 * <ul>
 *   <li>refunds PENDING for `refund-pending-after` are asked of their connector ({@code findRefund}) and a decided
 *       answer is applied through {@link Refunds} in a transaction against the refund as re-read there. One the
 *       connector confirms it does not hold (never sent: an orphaned charge's refund, or a send that did not reach
 *       it), or whose connector cannot tell (no look-up, or the look-up failed), is sent again with the refund id as
 *       the idempotency key ({@link RefundSends}: never twice, and a refusal after a send in doubt proves nothing),
 *       but only while the connector honours that key; past its key lifetime the refund is only looked up, and needs
 *       attention. A refund that needs attention is never sent again: a confirmed "no such refund" settles one
 *       refused after a send in doubt (FAILED), a found outcome settles any.
 *   <li>each refund is leased in `work_claims` for half the time it has waited (at least `refund-pending-after`, at
 *       most `reconcile-backoff-max`): a refund whose outcome is slow to come (an Adyen refund until its REFUND
 *       notification) is sent again less and less often, not every few seconds for ever.
 *   <li>an orphaned charge whose refunds all FAILED gets a new refund (a new refund id) once `refund-pending-after`
 *       × 2^(failures − 1), at most `reconcile-backoff-max`, has passed since the last failure.
 * </ul>
 */
@Component
public class RefundReconciler {

    private static final Logger log = LoggerFactory.getLogger(RefundReconciler.class);
    private static final String CLAIM_KIND = "refund";

    private final RefundQueries store;
    private final Refunds refunds;
    private final RefundSends sends;
    private final PaymentGateway gateway;
    private final RetryingTransaction transaction;
    private final WorkClaims claims;
    private final RecoveryProperties properties;
    private final Clock clock;

    public RefundReconciler(RefundQueries store, Refunds refunds, RefundSends sends, PaymentGateway gateway,
                            RetryingTransaction transaction, WorkClaims claims, RecoveryProperties properties,
                            Clock clock) {
        this.store = store;
        this.refunds = refunds;
        this.sends = sends;
        this.gateway = gateway;
        this.transaction = transaction;
        this.claims = claims;
        this.properties = properties;
        this.clock = clock;
    }

    /**
     * One look; emits how many refunds it settled or made. Never fails: a failure is logged and the next run retries.
     */
    public Mono<Long> settlePending() {
        double seconds = properties.refundPendingAfter().toMillis() / 1000.0;
        Mono<Long> settled = store.pendingOlderThan(seconds, CLAIM_KIND, properties.batchSize())
                .concatMap(refund -> claims.claim(CLAIM_KIND, refund.id(), lease(refund))
                        .filter(Boolean::booleanValue)
                        .flatMap(claimed -> settle(refund)))
                .filter(Boolean::booleanValue)
                .count();
        return settled.flatMap(count -> retryFailedOrphanRefunds().map(retried -> count + retried))
                .onErrorResume(e -> {
                    log.warn("Refund reconciliation failed; the next run tries again: {}", e.toString());
                    return Mono.just(0L);
                });
    }

    /** How long a look leaves the refund alone: half the time it has waited, within the quiet period and the cap. */
    static Duration lease(Duration waited, Duration quietFor, Duration backoffMax) {
        Duration half = waited.dividedBy(2);
        Duration backedOff = half.compareTo(backoffMax) > 0 ? backoffMax : half;
        return backedOff.compareTo(quietFor) > 0 ? backedOff : quietFor;
    }

    private Duration lease(Refund refund) {
        Duration waited = Duration.between(refund.createdAt(), Timestamps.now(clock));
        return lease(waited.isNegative() ? Duration.ZERO : waited, properties.refundPendingAfter(),
                properties.reconcileBackoffMax());
    }

    private Mono<Boolean> settle(Refund refund) {
        return gateway.findRefund(refund.refundRequest())
                .map(Optional::of)
                .switchIfEmpty(Mono.defer(() -> confirmedNone(refund)))
                .onErrorResume(GatewayException.class, e -> {
                    log.info("Connector {} could not say what became of refund {}: {}", refund.connector(),
                            refund.id(), e.getMessage());
                    return unknown(refund);
                })
                .flatMap(outcome -> outcome.isEmpty() ? Mono.just(false) : apply(refund, outcome.get()))
                .onErrorResume(GatewayException.class, e -> {
                    log.info("Refund {} stays PENDING: {}", refund.id(), e.getMessage());
                    return Mono.just(false);
                });
    }

    /** The connector holds no refund with this id. */
    private Mono<Optional<RefundOutcome>> confirmedNone(Refund refund) {
        if (Refunds.REFUSED_AFTER_DOUBT.equals(refund.attentionReason())) {
            // the refusal proves nothing was refunded now that the connector confirms it holds none
            return Mono.just(Optional.of(new RefundOutcome(refund.id(), refund.connector(), null,
                    GatewayStatus.FAILED, IdempotentRefundFlow.CONNECTOR_REFUSED)));
        }
        return sendIfAllowed(refund, true);
    }

    /** The connector cannot tell (no look-up, or it failed): a same-key resend is safe while the key lives. */
    private Mono<Optional<RefundOutcome>> unknown(Refund refund) {
        return sendIfAllowed(refund, false);
    }

    private Mono<Optional<RefundOutcome>> sendIfAllowed(Refund refund, boolean confirmedNone) {
        if (refund.attentionReason() != null) {
            return Mono.just(Optional.empty());
        }
        if (!sends.withinKeyLifetime(refund)) {
            return refunds.needsAttention(refund, Refunds.PAST_KEY_LIFETIME).thenReturn(Optional.empty());
        }
        return sends.send(refund, confirmedNone);
    }

    private Mono<Boolean> apply(Refund refund, RefundOutcome outcome) {
        return transaction.run(() -> store.findAnyMerchant(refund.id())
                        .flatMap(current -> refunds.applyToPending(current, outcome)))
                .map(applied -> {
                    if (applied.changed()) {
                        log.info("Reconciler moved refund {} of payment {} to {}", refund.id(), refund.paymentId(),
                                applied.refund().status());
                    }
                    return applied.changed();
                });
    }

    /** A new refund for each orphaned charge whose refunds all failed and whose backoff has passed. */
    private Mono<Long> retryFailedOrphanRefunds() {
        return store.failedOrphanRefundsDue(properties.refundPendingAfter(), properties.reconcileBackoffMax(),
                        properties.batchSize())
                .concatMap(failed -> transaction.run(() -> refunds.retryOrphanRefund(failed))
                        .doOnNext(retry -> log.info("Orphaned charge of payment {} attempt {}: refund {} failed, new"
                                        + " refund {} made", failed.paymentId(), failed.attempt(), failed.id(),
                                retry.id())))
                .count();
    }
}
