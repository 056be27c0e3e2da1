package com.payorch.events;

import java.util.Arrays;
import java.util.Optional;

/** The event types of the contract, as they appear in the API. */
public enum EventType {
    PAYMENT_CREATED("payment.created"),
    PAYMENT_PROCESSING("payment.processing"),
    PAYMENT_COMPLETED("payment.completed"),
    PAYMENT_FAILED("payment.failed"),
    PAYMENT_AUTHORIZED("payment.authorized"),
    PAYMENT_CAPTURE_FAILED("payment.capture_failed"),
    PAYMENT_CANCELLED("payment.cancelled"),
    PAYMENT_REQUIRES_ACTION("payment.requires_action"),
    BOOKING_ACTIVATED("booking.activated"),
    BOOKING_CONFIRMATION_SENT("booking.confirmation_sent"),
    CHARGE_ORPHANED("charge.orphaned"),
    REFUND_CREATED("refund.created"),
    REFUND_SUCCEEDED("refund.succeeded"),
    REFUND_FAILED("refund.failed"),
    REFUND_REVERSED("refund.reversed"),
    BOOKING_CANCELLED("booking.cancelled"),
    DISPUTE_OPENED("dispute.opened"),
    DISPUTE_WON("dispute.won"),
    DISPUTE_LOST("dispute.lost");

    private final String value;

    EventType(String value) {
        this.value = value;
    }

    public String value() {
        return value;
    }

    /** Every type's API value, for messages that list them. */
    public static String allValues() {
        return String.join(", ", Arrays.stream(values()).map(EventType::value).toList());
    }

    public static Optional<EventType> fromValue(String value) {
        return Arrays.stream(values()).filter(type -> type.value.equals(value)).findFirst();
    }
}
