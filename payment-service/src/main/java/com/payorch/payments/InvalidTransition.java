package com.payorch.payments;

import com.payorch.statemachine.PaymentEvent;
import com.payorch.statemachine.PaymentStatus;
import com.payorch.support.Refusal;

/** The life cycle does not allow this event in the payment's current status. */
public class InvalidTransition extends Refusal {

    public InvalidTransition(PaymentStatus from, PaymentEvent event) {
        super("invalid_transition", "Event " + event + " is not allowed for a payment in status " + from + ".");
    }

    private InvalidTransition(String detail) {
        super("invalid_transition", detail);
    }

    /** `complete` of a payment that does not wait for its customer. */
    public static InvalidTransition notWaitingForCustomer(PaymentStatus status) {
        return new InvalidTransition("Only a payment in status REQUIRES_ACTION can be completed; this one is "
                + status + ".");
    }
}
