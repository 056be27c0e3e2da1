package com.payorch.gateway;

import org.jspecify.annotations.Nullable;

/**
 * What a connector is asked to give back: {@code amount} of the charge {@code chargeReference} that attempt
 * {@code attempt} of the payment made. The refund id is the connector's idempotency key: the same refund sent
 * again is the same refund at the connector.
 *
 * @param connector the connector of the attempt that was charged (a refund goes nowhere else)
 * @param orphanedCharge whether it gives back a whole orphaned charge, which may not be captured yet (Adyen then
 *                       uses {@code /reversals}, which cancels or refunds as the charge's state requires)
 */
public record RefundRequest(String refundId, String paymentId, int attempt, @Nullable String chargeReference,
                            long amount, String currency, @Nullable String merchantId, String connector,
                            boolean orphanedCharge) {

    public RefundRequest(String refundId, String paymentId, int attempt, @Nullable String chargeReference,
                         long amount, String currency, @Nullable String merchantId, String connector) {
        this(refundId, paymentId, attempt, chargeReference, amount, currency, merchantId, connector, false);
    }

    public String idempotencyKey() {
        return refundId;
    }
}
