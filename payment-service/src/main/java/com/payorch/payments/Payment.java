package com.payorch.payments;

import com.payorch.statemachine.PaymentStatus;
import java.time.Instant;

/** A payment row as stored. `version` grows by one with every change of the row. */
public record Payment(String id, String merchantId, String bookingId, long amount, String currency,
                      String paymentMethod, String customerEmail, String description, PaymentStatus status,
                      String failureReason, long version, Instant createdAt, Instant updatedAt) {

    Payment moveTo(PaymentStatus newStatus, String newFailureReason, Instant at) {
        return new Payment(id, merchantId, bookingId, amount, currency, paymentMethod, customerEmail, description,
                newStatus, newFailureReason, version + 1, createdAt, at);
    }
}
