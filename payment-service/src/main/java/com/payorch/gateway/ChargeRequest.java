package com.payorch.gateway;

/**
 * What a connector is asked to charge for one attempt. The payment id and the attempt (1, then one more per retry
 * of a failed payment) form the connector's idempotency key: the same attempt submitted again is the same charge.
 */
public record ChargeRequest(String paymentId, int attempt, long amount, String currency, String paymentMethod) {

    public String idempotencyKey() {
        return attempt == 1 ? paymentId : paymentId + "-attempt-" + attempt;
    }
}
