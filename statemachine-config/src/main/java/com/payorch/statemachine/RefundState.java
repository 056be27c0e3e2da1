package com.payorch.statemachine;

import org.jspecify.annotations.Nullable;

/**
 * The states of the refund state machine: the public {@link RefundStatus} values plus {@link #NEW}, the state of a
 * refund that does not exist yet. NEW never leaves this package.
 */
enum RefundState {
    NEW,
    PENDING,
    SUCCEEDED,
    FAILED;

    static RefundState of(@Nullable RefundStatus status) {
        if (status == null) {
            return NEW;
        }
        return switch (status) {
            case PENDING -> PENDING;
            case SUCCEEDED -> SUCCEEDED;
            case FAILED -> FAILED;
        };
    }

    RefundStatus toStatus() {
        return switch (this) {
            case PENDING -> RefundStatus.PENDING;
            case SUCCEEDED -> RefundStatus.SUCCEEDED;
            case FAILED -> RefundStatus.FAILED;
            case NEW -> throw new IllegalStateException("NEW is not a refund status: no transition leads to it");
        };
    }
}
