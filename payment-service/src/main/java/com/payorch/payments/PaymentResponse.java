package com.payorch.payments;

import com.payorch.idempotency.StoredResponse;

/**
 * How the API answers a payment request: supplied by the HTTP layer, called by {@link IdempotentPaymentFlow} inside
 * the transaction that stores the answer with the idempotency key, so a replay returns the same bytes.
 */
@FunctionalInterface
public interface PaymentResponse {

    StoredResponse of(PaymentWithHistory payment);
}
