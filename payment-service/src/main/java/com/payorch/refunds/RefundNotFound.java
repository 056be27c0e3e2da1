package com.payorch.refunds;

import com.payorch.support.Refusal;

/** No such refund for this merchant (another merchant's refund is not found either). */
public class RefundNotFound extends Refusal {

    public RefundNotFound(String refundId) {
        super("not_found", "No refund " + refundId + ".");
    }
}
