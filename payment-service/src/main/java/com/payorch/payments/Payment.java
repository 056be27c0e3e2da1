package com.payorch.payments;

import com.payorch.statemachine.PaymentStatus;
import java.time.Instant;

/**
 * A payment row as stored. `version` grows by one with every change of the row; `attempt` counts gateway
 * submissions started (1, then one more per RETRY), and with the id forms the gateway's idempotency key.
 */
public record Payment(String id, String merchantId, String bookingId, long amount, String currency,
                      String paymentMethod, String customerEmail, String description, PaymentStatus status,
                      String failureReason, int attempt, long version, Instant createdAt, Instant updatedAt) {

    Payment moveTo(PaymentStatus newStatus, String newFailureReason, int newAttempt, Instant at) {
        return new Payment(id, merchantId, bookingId, amount, currency, paymentMethod, customerEmail, description,
                newStatus, newFailureReason, newAttempt, version + 1, createdAt, at);
    }
}
