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
 * `hold` is its capture method and, for a manual-capture payment, the authorisation, capture and cancel.
 */
public record Payment(String id, String merchantId, String bookingId, long amount, String currency,
                      String paymentMethod, String customerEmail, String description, PaymentStatus status,
                      String failureReason, int attempt, String connector, long version, Instant createdAt,
                      Instant updatedAt, Map<String, String> metadata, long amountRefunded, Hold hold) {

    public Payment {
        metadata = Map.copyOf(metadata);
        java.util.Objects.requireNonNull(hold, "hold");
    }

    /** An automatic-capture payment (see {@link Hold#AUTOMATIC}). */
    public Payment(String id, String merchantId, String bookingId, long amount, String currency, String paymentMethod,
                   String customerEmail, String description, PaymentStatus status, String failureReason, int attempt,
                   String connector, long version, Instant createdAt, Instant updatedAt, Map<String, String> metadata,
                   long amountRefunded) {
        this(id, merchantId, bookingId, amount, currency, paymentMethod, customerEmail, description, status,
                failureReason, attempt, connector, version, createdAt, updatedAt, metadata, amountRefunded,
                status == PaymentStatus.COMPLETED
                        ? new Hold(com.payorch.gateway.CaptureMethod.AUTOMATIC, amount, null, 0, null, null, null, null)
                        : Hold.AUTOMATIC);
    }

    /** A payment nothing has been refunded of (every payment until it is COMPLETED). */
    public Payment(String id, String merchantId, String bookingId, long amount, String currency, String paymentMethod,
                   String customerEmail, String description, PaymentStatus status, String failureReason, int attempt,
                   String connector, long version, Instant createdAt, Instant updatedAt, Map<String, String> metadata) {
        this(id, merchantId, bookingId, amount, currency, paymentMethod, customerEmail, description, status,
                failureReason, attempt, connector, version, createdAt, updatedAt, metadata, 0);
    }

    Payment moveTo(PaymentStatus newStatus, String newFailureReason, int newAttempt, Instant at, Hold newHold) {
        return new Payment(id, merchantId, bookingId, amount, currency, paymentMethod, customerEmail, description,
                newStatus, newFailureReason, newAttempt, connector, version + 1, createdAt, at, metadata,
                amountRefunded, newHold);
    }

    /** The same payment with its hold changed (not written: a transition or a cancel request writes it). */
    Payment withHold(Hold changed) {
        return new Payment(id, merchantId, bookingId, amount, currency, paymentMethod, customerEmail, description,
                status, failureReason, attempt, connector, version, createdAt, updatedAt, metadata, amountRefunded,
                changed);
    }

    public boolean manualCapture() {
        return hold.manual();
    }

    /** What the connector is asked to charge for the current attempt (its idempotency key included). */
    public ChargeRequest chargeRequest() {
        return new ChargeRequest(id, attempt, amount, currency, paymentMethod, merchantId, connector, null,
                hold.captureMethod());
    }
}
