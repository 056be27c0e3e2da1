package com.payorch.statemachine;

import org.jspecify.annotations.Nullable;

/**
 * The states of the booking state machine: the public {@link BookingStatus} values plus {@link #NEW}, the state of a
 * booking that does not exist yet. NEW never leaves this package.
 */
enum BookingState {
    NEW,
    AWAITING_PAYMENT,
    ACTIVE,
    CANCELLED;

    static BookingState of(@Nullable BookingStatus status) {
        if (status == null) {
            return NEW;
        }
        return switch (status) {
            case AWAITING_PAYMENT -> AWAITING_PAYMENT;
            case ACTIVE -> ACTIVE;
            case CANCELLED -> CANCELLED;
        };
    }

    BookingStatus toStatus() {
        return switch (this) {
            case AWAITING_PAYMENT -> BookingStatus.AWAITING_PAYMENT;
            case ACTIVE -> BookingStatus.ACTIVE;
            case CANCELLED -> BookingStatus.CANCELLED;
            case NEW -> throw new IllegalStateException("NEW is not a booking status: no transition leads to it");
        };
    }
}
