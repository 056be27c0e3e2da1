package com.payorch.refunds;

import com.payorch.refunds.internal.RefundStore;
import com.payorch.support.Page;
import com.payorch.support.PageRequest;
import com.payorch.support.UnknownCursor;
import java.time.Duration;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Reads of refunds for other modules (and the API). Every read is scoped to a merchant unless its name says
 * otherwise.
 */
@Component
public class RefundQueries {

    private final RefundStore refunds;

    public RefundQueries(RefundStore refunds) {
        this.refunds = refunds;
    }

    public Mono<Refund> find(String merchantId, String refundId) {
        return refunds.find(merchantId, refundId);
    }

    /** For callers that authenticate otherwise than by merchant, such as signed gateway webhooks. */
    public Mono<Refund> findAnyMerchant(String refundId) {
        return refunds.findAnyMerchant(refundId);
    }

    /**
     * PENDING refunds unchanged for longer than {@code seconds} (database clock) and not leased as {@code claimKind}
     * in `work_claims`, oldest first.
     */
    public Flux<Refund> pendingOlderThan(double seconds, String claimKind, int limit) {
        return refunds.pendingOlderThan(seconds, claimKind, limit);
    }

    /**
     * For each orphaned charge whose refunds all FAILED (none reversed) and whose last failure is older than
     * {@code base} × 2^(failures − 1), at most {@code max}: its latest failed refund.
     */
    public Flux<Refund> failedOrphanRefundsDue(Duration base, Duration max, int limit) {
        return refunds.failedOrphanRefundsDue(base.toMillis() / 1000.0, max.toMillis() / 1000.0, limit)
                .map(RefundStore.FailedOrphanRefund::latest);
    }

    /** One page of a payment's refunds, newest first; `startingAfter` must be one of them ({@link UnknownCursor}). */
    public Mono<Page<Refund>> list(String merchantId, String paymentId, PageRequest page) {
        return refunds.list(merchantId, paymentId, page);
    }
}
