package com.payorch.statemachine;

/** The status of a payment, as seen by the rest of the application. */
public enum PaymentStatus {
    PENDING,
    PROCESSING,
    COMPLETED,
    FAILED
}
