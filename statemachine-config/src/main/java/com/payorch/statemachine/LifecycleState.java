package com.payorch.statemachine;

import org.jspecify.annotations.Nullable;

/**
 * The states of the state machine: the public {@link PaymentStatus} values plus {@link #NEW}, the state of a
 * payment that does not exist yet. NEW never leaves this package.
 */
enum LifecycleState {
    NEW,
    PENDING,
    PROCESSING,
    REQUIRES_ACTION,
    AUTHORIZED,
    CAPTURING,
    COMPLETED,
    FAILED,
    CANCELLED;

    static LifecycleState of(@Nullable PaymentStatus status) {
        if (status == null) {
            return NEW;
        }
        return switch (status) {
            case PENDING -> PENDING;
            case PROCESSING -> PROCESSING;
            case REQUIRES_ACTION -> REQUIRES_ACTION;
            case AUTHORIZED -> AUTHORIZED;
            case CAPTURING -> CAPTURING;
            case COMPLETED -> COMPLETED;
            case FAILED -> FAILED;
            case CANCELLED -> CANCELLED;
        };
    }

    PaymentStatus toStatus() {
        return switch (this) {
            case PENDING -> PaymentStatus.PENDING;
            case PROCESSING -> PaymentStatus.PROCESSING;
            case REQUIRES_ACTION -> PaymentStatus.REQUIRES_ACTION;
            case AUTHORIZED -> PaymentStatus.AUTHORIZED;
            case CAPTURING -> PaymentStatus.CAPTURING;
            case COMPLETED -> PaymentStatus.COMPLETED;
            case FAILED -> PaymentStatus.FAILED;
            case CANCELLED -> PaymentStatus.CANCELLED;
            case NEW -> throw new IllegalStateException("NEW is not a payment status: no transition leads to it");
        };
    }
}
