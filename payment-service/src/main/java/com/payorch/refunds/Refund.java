package com.payorch.refunds;

import com.payorch.gateway.RefundRequest;
import com.payorch.statemachine.RefundStatus;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * A refund row as stored. `attempt`, `connector` and `chargeReference` name the charge it gives money back from (the
 * attempt that was charged); `countsAgainstPayment` is false only for the automatic refund of an orphaned charge.
 */
public record Refund(String id, String merchantId, String paymentId, int attempt, long amount, String currency,
                     RefundStatus status, @Nullable String reason, @Nullable String failureReason, String connector,
                     @Nullable String chargeReference, @Nullable String connectorReference,
                     boolean countsAgainstPayment, long version, Instant createdAt, Instant updatedAt) {

    /** What the connector is asked to refund; the refund id is its idempotency key. */
    public RefundRequest refundRequest() {
        return new RefundRequest(id, paymentId, attempt, chargeReference, amount, currency, merchantId, connector);
    }
}
