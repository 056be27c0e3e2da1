package com.payorch.refunds;

import com.payorch.statemachine.PaymentStatus;
import com.payorch.support.Refusal;

/** Only a COMPLETED payment can be refunded. */
public class PaymentNotRefundable extends Refusal {

    public PaymentNotRefundable(String paymentId, PaymentStatus status) {
        super("payment_not_refundable",
                "Payment " + paymentId + " is " + status + "; only a COMPLETED payment can be refunded.");
    }
}
