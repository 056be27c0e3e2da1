package com.payorch.statemachine;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * The status of a payment, as seen by the rest of the application. AUTHORIZED, CAPTURING and CANCELLED belong to
 * manual-capture payments (holds): money held, a capture sent, a hold released. REQUIRES_ACTION waits for the
 * customer (3-D Secure, a redirect) before the connector can charge or authorise.
 */
public enum PaymentStatus {
    PENDING,
    PROCESSING,
    REQUIRES_ACTION,
    AUTHORIZED,
    CAPTURING,
    COMPLETED,
    FAILED,
    CANCELLED;

    /** Waiting for the connector's outcome: what the recovery jobs and the console watch. */
    public static final Set<PaymentStatus> UNSETTLED = Collections.unmodifiableSet(EnumSet.of(PENDING, PROCESSING));

    /** Holding its booking: at most one such payment per booking (the booking guard). */
    public static final Set<PaymentStatus> LIVE =
            Collections.unmodifiableSet(EnumSet.of(PENDING, PROCESSING, REQUIRES_ACTION, AUTHORIZED, CAPTURING, COMPLETED));

    /** Money held at the connector and not taken yet (a hold, or a hold whose capture was sent). */
    public static final Set<PaymentStatus> HELD = Collections.unmodifiableSet(EnumSet.of(AUTHORIZED, CAPTURING));
}
