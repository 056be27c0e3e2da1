package com.payorch.statemachine;

/**
 * What can happen to a booking; {@link BookingLifecycle} decides whether it is allowed. CREATE: its first payment
 * arrives; ACTIVATE: a payment of it completes; CANCEL: that payment is refunded in full.
 */
public enum BookingEvent {
    CREATE,
    ACTIVATE,
    CANCEL
}
