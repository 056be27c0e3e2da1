package com.payorch.refunds;

import com.payorch.gateway.RefundOutcome;
import com.payorch.idempotency.IdempotencyKeys;
import com.payorch.idempotency.IdempotencyLockLostException;
import com.payorch.idempotency.IdempotencyRequestInProgress;
import com.payorch.idempotency.IdempotentRequest;
import com.payorch.idempotency.KeyAcquisition;
import com.payorch.idempotency.KeyClaim;
import com.payorch.idempotency.RecoveryPoint;
import com.payorch.idempotency.StoredResponse;
import com.payorch.payments.RetryingTransaction;
import com.payorch.refunds.internal.RefundStore;
import com.payorch.statemachine.RefundStatus;
import com.payorch.support.DatabaseErrors;
import com.payorch.support.Refusal;
import com.payorch.support.UnstorableText;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;

/**
 * Drives an idempotent refund request through its recovery points, like
 * {@link com.payorch.payments.IdempotentPaymentFlow}:
 * <pre>
 *   STARTED ──tx: refund PENDING (amount reserved) + key──▶ REFUND_CREATED ──connector refund (no tx)──▶
 *       tx: outcome + response ──▶ FINISHED
 * </pre>
 * The refund row is committed before the connector hears of it, and the connector's idempotency key is the refund
 * id, so a retry of the request (or the reconciler) sends the same refund again, never a second one.
 */
@Component
public class IdempotentRefundFlow {

    /** The failure reason of a refund the connector definitely refused (e.g. it cannot refund through us). */
    public static final String CONNECTOR_REFUSED = "connector_refused";

    private static final Logger log = LoggerFactory.getLogger(IdempotentRefundFlow.class);
    /**
     * This flow's recovery point between the key's STARTED and FINISHED, with the refund's id: the refund row is
     * committed (PENDING, its amount reserved); the connector may not know it yet.
     */
    private static final String REFUND_CREATED = "REFUND_CREATED";

    private final IdempotencyKeys keys;
    private final Refunds refunds;
    private final RefundStore store;
    private final RefundSends sends;
    private final TransactionalOperator transaction;
    private final RetryingTransaction retryingTransaction;

    public IdempotentRefundFlow(IdempotencyKeys keys, Refunds refunds, RefundStore store, RefundSends sends,
                                TransactionalOperator transaction, RetryingTransaction retryingTransaction) {
        this.keys = keys;
        this.refunds = refunds;
        this.store = store;
        this.sends = sends;
        this.transaction = transaction;
        this.retryingTransaction = retryingTransaction;
    }

    /** `POST /v1/payments/{id}/refunds`. */
    public Mono<StoredResponse> create(IdempotentRequest request, String paymentId, @Nullable Long amount,
                                       @Nullable String reason, RefundResponse response) {
        return keys.acquire(request).flatMap(acquisition -> {
            if (acquisition instanceof KeyAcquisition.Replay replay) {
                return Mono.just(replay.response());
            }
            KeyClaim claim = ((KeyAcquisition.Claimed) acquisition).claim();
            return resume(claim, paymentId, amount, reason, response)
                    .onErrorResume(error -> giveBack(claim, error));
        });
    }

    private Mono<StoredResponse> resume(KeyClaim claim, String paymentId, @Nullable Long amount,
                                        @Nullable String reason, RefundResponse response) {
        String merchantId = claim.request().merchantId();
        Mono<Refund> created = switch (claim.recoveryPoint()) {
            case RecoveryPoint.STARTED -> transaction.transactional(Mono.defer(() -> refunds.create(merchantId,
                            paymentId, amount, reason)
                    .flatMap(refund -> keys.advanceTo(claim, REFUND_CREATED, refund.id())
                            .thenReturn(refund))));
            case REFUND_CREATED -> store.find(merchantId, claim.resourceId())
                    .switchIfEmpty(Mono.error(() -> new IllegalStateException("refund " + claim.resourceId()
                            + " vanished")));
            default -> Mono.error(new IllegalStateException(
                    "a refund request cannot resume at " + claim.recoveryPoint()));
        };
        return created.flatMap(refund -> sendAndFinish(claim, refund, response));
    }

    private Mono<StoredResponse> sendAndFinish(KeyClaim claim, Refund known, RefundResponse response) {
        return (known.status() == RefundStatus.PENDING ? send(known) : Mono.just(Optional.<RefundOutcome>empty()))
                .flatMap(outcome -> retryingTransaction.run(() -> store.findAnyMerchant(known.id())
                        .flatMap(current -> outcome.isEmpty() ? Mono.just(current)
                                : refunds.applyToPending(current, outcome.get()).map(Refunds.Applied::refund))
                        .flatMap(current -> {
                            StoredResponse stored = response.of(current);
                            return keys.finish(claim, stored).thenReturn(stored);
                        })));
    }

    /**
     * The connector's answer ({@link RefundSends}); empty when it could not be reached (the reconciler sends it
     * later) or when a refusal proves nothing after a send in doubt. A definite refusal otherwise is a FAILED
     * outcome: nothing was refunded, so the reserved amount is given back. A lost answer fails the request (502) and
     * leaves the key at REFUND_CREATED: the client's retry sends the same refund id again.
     */
    private Mono<Optional<RefundOutcome>> send(Refund refund) {
        return sends.send(refund, false);
    }

    /**
     * As {@link com.payorch.payments.IdempotentPaymentFlow}: a refusal frees the key; another failure keeps the
     * recovery point.
     */
    private Mono<StoredResponse> giveBack(KeyClaim claim, Throwable error) {
        if (error instanceof IdempotencyLockLostException) {
            return Mono.error(new IdempotencyRequestInProgress(
                    "Another attempt with this Idempotency-Key took over; retry to get its result.", 1));
        }
        if (error instanceof Refusal) {
            return keys.forget(claim).then(Mono.error(error));
        }
        if (DatabaseErrors.isBadCharacter(error)) {
            return keys.forget(claim).then(Mono.error(new UnstorableText()));
        }
        log.warn("Idempotent refund request {} (merchant {}, resumed at {}) failed: {}", claim.request().key(),
                claim.request().merchantId(), claim.recoveryPoint(), DatabaseErrors.summary(error));
        return keys.free(claim).onErrorResume(e -> Mono.empty()).then(Mono.error(error));
    }
}
