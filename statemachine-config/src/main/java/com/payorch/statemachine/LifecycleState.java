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
    COMPLETED,
    FAILED;

    static LifecycleState of(@Nullable PaymentStatus status) {
        if (status == null) {
            return NEW;
        }
        return switch (status) {
            case PENDING -> PENDING;
            case PROCESSING -> PROCESSING;
            case COMPLETED -> COMPLETED;
            case FAILED -> FAILED;
        };
    }

    PaymentStatus toStatus() {
        return switch (this) {
            case PENDING -> PaymentStatus.PENDING;
            case PROCESSING -> PaymentStatus.PROCESSING;
            case COMPLETED -> PaymentStatus.COMPLETED;
            case FAILED -> PaymentStatus.FAILED;
            case NEW -> throw new IllegalStateException("NEW is not a payment status: no transition leads to it");
        };
    }
}
