package com.payorch.refunds;

import com.payorch.refunds.internal.RefundStore;
import com.payorch.support.Page;
import com.payorch.support.PageRequest;
import com.payorch.support.UnknownCursor;
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

    /** PENDING refunds unchanged for longer than {@code seconds} (database clock), oldest first. */
    public Flux<Refund> pendingOlderThan(double seconds, int limit) {
        return refunds.pendingOlderThan(seconds, limit);
    }

    /** One page of a payment's refunds, newest first; `startingAfter` must be one of them ({@link UnknownCursor}). */
    public Mono<Page<Refund>> list(String merchantId, String paymentId, PageRequest page) {
        return refunds.list(merchantId, paymentId, page);
    }
}
