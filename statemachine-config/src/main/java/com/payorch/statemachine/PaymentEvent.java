package com.payorch.statemachine;

/** What can happen to a payment; {@link PaymentLifecycle} decides whether it is allowed. */
public enum PaymentEvent {
    CREATE,
    SUBMIT,
    SUCCEED,
    FAIL,
    RETRY,
    /** The connector holds the money of a manual-capture payment. */
    AUTHORIZE,
    /** A capture of the held money was sent. */
    CAPTURE,
    /** The connector refused the capture: the money is still held. */
    CAPTURE_FAIL,
    /** The hold was released (or a manual payment not yet authorised was cancelled) at the connector. */
    CANCEL,
    /** The connector asks for the customer (3-D Secure, a redirect): the payment waits for them. */
    REQUIRE_ACTION
}
