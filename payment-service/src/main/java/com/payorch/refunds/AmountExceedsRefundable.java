package com.payorch.refunds;

import com.payorch.support.Refusal;

/**
 * The refund would take the payment's PENDING and SUCCEEDED refunds past what it captured, less what its disputes
 * hold.
 */
public class AmountExceedsRefundable extends Refusal {

    private final long refundable;

    public AmountExceedsRefundable(String paymentId, long requested, long refundable, String currency) {
        super("amount_exceeds_refundable", (requested > 0 ? "A refund of " + requested + " " + currency : "A refund")
                + " exceeds what payment " + paymentId + " has left to refund: " + refundable + " " + currency
                + " is refundable.");
        this.refundable = refundable;
    }

    public long refundable() {
        return refundable;
    }
}
