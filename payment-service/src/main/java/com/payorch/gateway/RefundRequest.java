package com.payorch.gateway;

import org.jspecify.annotations.Nullable;

/**
 * What a connector is asked to give back: {@code amount} of the charge {@code chargeReference} that attempt
 * {@code attempt} of the payment made. The refund id is the connector's idempotency key: the same refund sent
 * again is the same refund at the connector.
 *
 * @param connector the connector of the attempt that was charged (a refund goes nowhere else)
 */
public record RefundRequest(String refundId, String paymentId, int attempt, @Nullable String chargeReference,
                            long amount, String currency, @Nullable String merchantId, String connector) {

    public String idempotencyKey() {
        return refundId;
    }
}
