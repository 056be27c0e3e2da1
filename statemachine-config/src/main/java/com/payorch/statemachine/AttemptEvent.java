package com.payorch.statemachine;

/**
 * What can happen to an attempt; {@link AttemptLifecycle} decides whether it is allowed. CREATE, SUBMIT, SUCCEED and
 * FAIL follow the payment's events of the same name (a payment's CREATE or RETRY creates its attempt);
 * CHARGE_ORPHANED: the connector reports that a superseded (FAILED) attempt took the money after all.
 */
public enum AttemptEvent {
    CREATE,
    SUBMIT,
    SUCCEED,
    FAIL,
    CHARGE_ORPHANED
}
