package com.payorch.payments;

import com.payorch.statemachine.PaymentStatus;

/** Where one attempt stands; the current attempt's status follows the payment's. */
public enum AttemptStatus {
    PENDING, PROCESSING, SUCCEEDED, FAILED;

    static AttemptStatus of(PaymentStatus paymentStatus) {
        return switch (paymentStatus) {
            case PENDING -> PENDING;
            case PROCESSING -> PROCESSING;
            case COMPLETED -> SUCCEEDED;
            case FAILED -> FAILED;
        };
    }
}
