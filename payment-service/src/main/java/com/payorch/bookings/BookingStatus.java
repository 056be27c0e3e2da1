package com.payorch.bookings;

public enum BookingStatus {
    AWAITING_PAYMENT, ACTIVE, CANCELLED
}
