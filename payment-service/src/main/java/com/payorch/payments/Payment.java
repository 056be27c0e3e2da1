package com.payorch.payments;

import com.payorch.gateway.ChargeRequest;
import com.payorch.statemachine.PaymentStatus;
import java.time.Instant;
import java.util.Map;

/**
 * A payment row as stored. `version` grows by one with every change of the row; `attempt` is the current attempt's
 * number (1, then one more per RETRY) and `connector` where it went: only outcomes about that attempt may change
 * the payment. `metadata` is the merchant's own key-value pairs, given on create and never changed.
 * `amountRefunded` is the sum of its SUCCEEDED refunds (kept on the row by the statement that settles a refund).
 */
public record Payment(String id, String merchantId, String bookingId, long amount, String currency,
                      String paymentMethod, String customerEmail, String description, PaymentStatus status,
                      String failureReason, int attempt, String connector, long version, Instant createdAt,
                      Instant updatedAt, Map<String, String> metadata, long amountRefunded) {

    public Payment {
        metadata = Map.copyOf(metadata);
    }

    /** A payment nothing has been refunded of (every payment until it is COMPLETED). */
    public Payment(String id, String merchantId, String bookingId, long amount, String currency, String paymentMethod,
                   String customerEmail, String description, PaymentStatus status, String failureReason, int attempt,
                   String connector, long version, Instant createdAt, Instant updatedAt, Map<String, String> metadata) {
        this(id, merchantId, bookingId, amount, currency, paymentMethod, customerEmail, description, status,
                failureReason, attempt, connector, version, createdAt, updatedAt, metadata, 0);
    }

    Payment moveTo(PaymentStatus newStatus, String newFailureReason, int newAttempt, Instant at) {
        return new Payment(id, merchantId, bookingId, amount, currency, paymentMethod, customerEmail, description,
                newStatus, newFailureReason, newAttempt, connector, version + 1, createdAt, at, metadata,
                amountRefunded);
    }

    /** What the connector is asked to charge for the current attempt (its idempotency key included). */
    public ChargeRequest chargeRequest() {
        return new ChargeRequest(id, attempt, amount, currency, paymentMethod, merchantId, connector);
    }
}
