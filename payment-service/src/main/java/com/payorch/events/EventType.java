package com.payorch.events;

import java.util.Arrays;
import java.util.Optional;

/** The event types of the contract, as they appear in the API. */
public enum EventType {
    PAYMENT_CREATED("payment.created"),
    PAYMENT_PROCESSING("payment.processing"),
    PAYMENT_COMPLETED("payment.completed"),
    PAYMENT_FAILED("payment.failed"),
    BOOKING_ACTIVATED("booking.activated"),
    BOOKING_CONFIRMATION_SENT("booking.confirmation_sent");

    private final String value;

    EventType(String value) {
        this.value = value;
    }

    public String value() {
        return value;
    }

    public static Optional<EventType> fromValue(String value) {
        return Arrays.stream(values()).filter(type -> type.value.equals(value)).findFirst();
    }
}
