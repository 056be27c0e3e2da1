package com.payorch.refunds;

import com.payorch.gateway.RefundRequest;
import com.payorch.statemachine.RefundStatus;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * A refund row as stored. `attempt`, `connector` and `chargeReference` name the charge it gives money back from (the
 * attempt that was charged); `countsAgainstPayment` is false only for the automatic refund of an orphaned charge.
 * `sendsInDoubt` counts sends whose answer was lost (the connector may have refunded); `attentionReason` says why a
 * person must look at it (null: nothing to look at).
 */
public record Refund(String id, String merchantId, String paymentId, int attempt, long amount, String currency,
                     RefundStatus status, @Nullable String reason, @Nullable String failureReason, String connector,
                     @Nullable String chargeReference, @Nullable String connectorReference,
                     boolean countsAgainstPayment, long version, Instant createdAt, Instant updatedAt,
                     int sendsInDoubt, @Nullable String attentionReason) {

    /**
     * What the connector is asked to refund; the refund id is its idempotency key. An orphaned charge's refund says
     * so: the charge may not be captured (Adyen then reverses it rather than refunds it).
     */
    public RefundRequest refundRequest() {
        return new RefundRequest(id, paymentId, attempt, chargeReference, amount, currency, merchantId, connector,
                !countsAgainstPayment);
    }

    /** The connector may hold a refund for it: a send's answer was lost, or the connector named its refund. */
    public boolean mayExistAtConnector() {
        return sendsInDoubt > 0 || connectorReference != null;
    }
}
