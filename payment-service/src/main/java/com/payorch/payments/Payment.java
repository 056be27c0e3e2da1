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
 * `action` is where its customer comes back to and, while REQUIRES_ACTION, where they are sent.
 * `amountDisputed` is the sum of its OPEN and LOST disputes' amounts (kept on the row by the transaction that applies
 * a dispute report); it is not refundable.
 */
public record Payment(String id, String merchantId, String bookingId, long amount, String currency,
                      String paymentMethod, String customerEmail, String description, PaymentStatus status,
                      String failureReason, int attempt, String connector, long version, Instant createdAt,
                      Instant updatedAt, Map<String, String> metadata, long amountRefunded, Hold hold,
                      CustomerAction action, long amountDisputed) {

    public Payment {
        metadata = Map.copyOf(metadata);
        java.util.Objects.requireNonNull(hold, "hold");
        java.util.Objects.requireNonNull(action, "action");
    }

    /** A payment nothing is disputed of. */
    public Payment(String id, String merchantId, String bookingId, long amount, String currency, String paymentMethod,
                   String customerEmail, String description, PaymentStatus status, String failureReason, int attempt,
                   String connector, long version, Instant createdAt, Instant updatedAt, Map<String, String> metadata,
                   long amountRefunded, Hold hold, CustomerAction action) {
        this(id, merchantId, bookingId, amount, currency, paymentMethod, customerEmail, description, status,
                failureReason, attempt, connector, version, createdAt, updatedAt, metadata, amountRefunded, hold,
                action, 0);
    }

    /** A payment whose merchant gave no `returnUrl`. */
    public Payment(String id, String merchantId, String bookingId, long amount, String currency, String paymentMethod,
                   String customerEmail, String description, PaymentStatus status, String failureReason, int attempt,
                   String connector, long version, Instant createdAt, Instant updatedAt, Map<String, String> metadata,
                   long amountRefunded, Hold hold) {
        this(id, merchantId, bookingId, amount, currency, paymentMethod, customerEmail, description, status,
                failureReason, attempt, connector, version, createdAt, updatedAt, metadata, amountRefunded, hold,
                CustomerAction.NONE);
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
                amountRefunded, newHold, action.after(newStatus, at), amountDisputed);
    }

    /** The same payment with its customer action changed (not written: a transition writes it). */
    Payment withAction(CustomerAction changed) {
        return new Payment(id, merchantId, bookingId, amount, currency, paymentMethod, customerEmail, description,
                status, failureReason, attempt, connector, version, createdAt, updatedAt, metadata, amountRefunded,
                hold, changed, amountDisputed);
    }

    /** The same payment with its hold changed (not written: a transition or a cancel request writes it). */
    Payment withHold(Hold changed) {
        return new Payment(id, merchantId, bookingId, amount, currency, paymentMethod, customerEmail, description,
                status, failureReason, attempt, connector, version, createdAt, updatedAt, metadata, amountRefunded,
                changed, action, amountDisputed);
    }

    /** Whether the customer's action expired: the expiry recorded a cancel of the attempt for it. */
    public boolean actionExpired() {
        return hold.cancelRequested() && CustomerAction.AUTHENTICATION_EXPIRED.equals(hold.cancelReason());
    }

    public boolean manualCapture() {
        return hold.manual();
    }

    /** What the connector is asked to charge for the current attempt (its idempotency key included). */
    public ChargeRequest chargeRequest() {
        return new ChargeRequest(id, attempt, amount, currency, paymentMethod, merchantId, connector, null,
                hold.captureMethod(), action.returnUrl() == null ? null
                        : ReturnUrls.withPaymentId(action.returnUrl(), id));
    }
}
