package com.payorch.refunds;

import com.payorch.idempotency.StoredResponse;

/**
 * How the API answers a refund request: supplied by the HTTP layer, called by {@link IdempotentRefundFlow} inside
 * the transaction that stores the answer with the idempotency key, so a replay returns the same bytes.
 */
@FunctionalInterface
public interface RefundResponse {

    StoredResponse of(Refund refund);
}
