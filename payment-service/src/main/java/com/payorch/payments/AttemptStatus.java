package com.payorch.payments;

import com.payorch.statemachine.PaymentStatus;

/** Where one attempt stands; the current attempt's status follows the payment's. */
public enum AttemptStatus {
    PENDING, PROCESSING, REQUIRES_ACTION, AUTHORIZED, SUCCEEDED, FAILED, CANCELLED;

    static AttemptStatus of(PaymentStatus paymentStatus) {
        return switch (paymentStatus) {
            case PENDING -> PENDING;
            case PROCESSING -> PROCESSING;
            case REQUIRES_ACTION -> REQUIRES_ACTION;
            // A capture in flight: the attempt still holds the money until the connector took it.
            case AUTHORIZED, CAPTURING -> AUTHORIZED;
            case COMPLETED -> SUCCEEDED;
            case FAILED -> FAILED;
            case CANCELLED -> CANCELLED;
        };
    }
}
