package com.payorch.statemachine;

/** The status of a booking: waiting for its payment, ACTIVE once paid, CANCELLED once refunded in full. */
public enum BookingStatus {
    AWAITING_PAYMENT,
    ACTIVE,
    CANCELLED
}
