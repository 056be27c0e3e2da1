package com.payorch.statemachine;

import org.jspecify.annotations.Nullable;

/**
 * The states of the attempt state machine: the public {@link AttemptStatus} values plus {@link #NEW}, the state of
 * an attempt that does not exist yet. NEW never leaves this package.
 */
enum AttemptState {
    NEW,
    PENDING,
    PROCESSING,
    SUCCEEDED,
    FAILED;

    static AttemptState of(@Nullable AttemptStatus status) {
        if (status == null) {
            return NEW;
        }
        return switch (status) {
            case PENDING -> PENDING;
            case PROCESSING -> PROCESSING;
            case SUCCEEDED -> SUCCEEDED;
            case FAILED -> FAILED;
        };
    }

    AttemptStatus toStatus() {
        return switch (this) {
            case PENDING -> AttemptStatus.PENDING;
            case PROCESSING -> AttemptStatus.PROCESSING;
            case SUCCEEDED -> AttemptStatus.SUCCEEDED;
            case FAILED -> AttemptStatus.FAILED;
            case NEW -> throw new IllegalStateException("NEW is not an attempt status: no transition leads to it");
        };
    }
}
