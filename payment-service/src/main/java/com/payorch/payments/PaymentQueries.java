package com.payorch.payments;

import com.payorch.payments.internal.PaymentListQueries;
import com.payorch.payments.internal.PaymentStore;
import com.payorch.support.Page;
import com.payorch.support.PageRequest;
import com.payorch.support.UnknownCursor;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Reads of payments for other modules (and the API): one payment as stored, or as shown with its history and
 * attempts, or a page of them. Every read is scoped to a merchant unless its name says otherwise.
 */
@Component
public class PaymentQueries {

    private final PaymentStore payments;
    private final PaymentListQueries lists;

    public PaymentQueries(PaymentStore payments, PaymentListQueries lists) {
        this.payments = payments;
        this.lists = lists;
    }

    public Mono<Payment> find(String merchantId, String paymentId) {
        return payments.find(merchantId, paymentId);
    }

    /** For callers that authenticate otherwise than by merchant, such as signed gateway webhooks. */
    public Mono<Payment> findAnyMerchant(String paymentId) {
        return payments.findAnyMerchant(paymentId);
    }

    /** A payment with its history and attempts, in one query. */
    public Mono<PaymentWithHistory> findWithHistory(String merchantId, String paymentId) {
        return lists.findWithHistory(merchantId, paymentId);
    }

    /**
     * One page of the merchant's payments, newest first, each with its history and attempts; an unknown
     * `startingAfter` is {@link UnknownCursor}.
     */
    public Mono<Page<PaymentWithHistory>> list(String merchantId, PaymentFilter filter, PageRequest page) {
        return lists.list(merchantId, filter, page);
    }
}
