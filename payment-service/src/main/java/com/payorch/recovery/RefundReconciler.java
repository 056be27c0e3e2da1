package com.payorch.recovery;

import com.payorch.gateway.GatewayException;
import com.payorch.gateway.PaymentGateway;
import com.payorch.payments.RetryingTransaction;
import com.payorch.refunds.IdempotentRefundFlow;
import com.payorch.refunds.Refund;
import com.payorch.refunds.RefundQueries;
import com.payorch.refunds.Refunds;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * No refund stays PENDING: every `payments.recovery.interval`, refunds unchanged for `refund-pending-after` are
 * asked of their connector ({@code findRefund}); one the connector does not know (never sent: an orphaned charge's
 * refund, or a send that did not reach it) is sent, with the refund id as the idempotency key, so it is never made
 * twice. A decided outcome is applied through {@link Refunds} in a transaction against the refund as re-read there.
 * Each refund is leased in `work_claims`, so several instances do not work on one refund at once.
 */
@Component
public class RefundReconciler {

    private static final Logger log = LoggerFactory.getLogger(RefundReconciler.class);

    private final RefundQueries store;
    private final Refunds refunds;
    private final PaymentGateway gateway;
    private final RetryingTransaction transaction;
    private final WorkClaims claims;
    private final RecoveryProperties properties;

    public RefundReconciler(RefundQueries store, Refunds refunds, PaymentGateway gateway,
                            RetryingTransaction transaction, WorkClaims claims, RecoveryProperties properties) {
        this.store = store;
        this.refunds = refunds;
        this.gateway = gateway;
        this.transaction = transaction;
        this.claims = claims;
        this.properties = properties;
    }

    /** One look; emits how many refunds it settled. Never fails: a failure is logged and the next run retries. */
    public Mono<Long> settlePending() {
        double seconds = properties.refundPendingAfter().toMillis() / 1000.0;
        return store.pendingOlderThan(seconds, properties.batchSize())
                .concatMap(refund -> claims.claim("refund", refund.id(), properties.refundPendingAfter())
                        .filter(Boolean::booleanValue)
                        .flatMap(claimed -> settle(refund)))
                .filter(Boolean::booleanValue)
                .count()
                .onErrorResume(e -> {
                    log.warn("Refund reconciliation failed; the next run tries again: {}", e.toString());
                    return Mono.just(0L);
                });
    }

    private Mono<Boolean> settle(Refund refund) {
        return gateway.findRefund(refund.refundRequest())
                .map(Optional::of)
                .switchIfEmpty(Mono.defer(() -> IdempotentRefundFlow.send(gateway, refund)))
                .flatMap(outcome -> outcome.isEmpty() ? Mono.just(false)
                        : transaction.run(() -> store.findAnyMerchant(refund.id())
                                .flatMap(current -> refunds.apply(current, outcome.get())))
                                .map(applied -> {
                                    if (applied.changed()) {
                                        log.info("Reconciler moved refund {} of payment {} to {}", refund.id(),
                                                refund.paymentId(), applied.refund().status());
                                    }
                                    return applied.changed();
                                }))
                .onErrorResume(GatewayException.class, e -> {
                    log.info("Connector could not say what became of refund {}: {}", refund.id(), e.getMessage());
                    return Mono.just(false);
                });
    }
}
