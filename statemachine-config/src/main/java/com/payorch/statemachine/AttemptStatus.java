package com.payorch.statemachine;

/**
 * Where one attempt of a payment stands (each RETRY starts a new one). The current attempt's status follows the
 * payment's (COMPLETED is SUCCEEDED); a superseded one changes only when it turns out to have taken the money.
 */
public enum AttemptStatus {
    PENDING,
    PROCESSING,
    SUCCEEDED,
    FAILED
}
