package com.payorch.statemachine;

/** What can happen to a refund; {@link RefundLifecycle} decides whether it is allowed. */
public enum RefundEvent {
    CREATE,
    SUCCEED,
    FAIL,
    /** The connector reports a refund that SUCCEEDED as failed or reversed after all (the money came back). */
    REVERSE
}
