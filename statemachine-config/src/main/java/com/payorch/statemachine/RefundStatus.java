package com.payorch.statemachine;

/**
 * The status of a refund, as seen by the rest of the application. PENDING, then SUCCEEDED or FAILED; a SUCCEEDED refund
 * the connector reverses becomes FAILED (terminal).
 */
public enum RefundStatus {
    PENDING,
    SUCCEEDED,
    FAILED
}
