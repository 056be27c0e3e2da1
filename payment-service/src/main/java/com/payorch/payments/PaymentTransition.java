package com.payorch.payments;

import com.payorch.statemachine.PaymentEvent;
import com.payorch.statemachine.PaymentStatus;
import java.time.Instant;

/** One line of a payment's history. `from` is null for the creation. */
public record PaymentTransition(PaymentStatus from, PaymentStatus to, PaymentEvent event, TransitionSource source,
                                String sourceId, Instant at) {
}
