package com.payorch.statemachine;

/** What can happen to a payment; {@link PaymentLifecycle} decides whether it is allowed. */
public enum PaymentEvent {
    CREATE,
    SUBMIT,
    SUCCEED,
    FAIL,
    RETRY
}
