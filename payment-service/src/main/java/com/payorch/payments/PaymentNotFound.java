package com.payorch.payments;

import com.payorch.support.Refusal;

/** No such payment for this merchant (another merchant's payment is not found either). */
public class PaymentNotFound extends Refusal {

    public PaymentNotFound(String paymentId) {
        super("not_found", "No payment " + paymentId + ".");
    }
}
