package com.payorch.statemachine;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/** The status of a payment, as seen by the rest of the application. */
public enum PaymentStatus {
    PENDING,
    PROCESSING,
    COMPLETED,
    FAILED;

    /** Waiting for the connector's outcome: what the recovery jobs and the console watch. */
    public static final Set<PaymentStatus> UNSETTLED = Collections.unmodifiableSet(EnumSet.of(PENDING, PROCESSING));

    /** Holding its booking: at most one such payment per booking (the booking guard). */
    public static final Set<PaymentStatus> LIVE =
            Collections.unmodifiableSet(EnumSet.of(PENDING, PROCESSING, COMPLETED));
}
