package com.payorch.gateway;

import reactor.core.publisher.Mono;

/**
 * The port to a payment gateway. `submit` must be idempotent on {@link ChargeRequest#idempotencyKey()}:
 * submitting the same payment attempt again returns the charge already made, never a second one. Errors: {@link GatewayUnavailableException} when the
 * gateway could not be reached; any other {@link GatewayException} when the outcome is unknown.
 */
public interface PaymentGateway {

    Mono<GatewayCharge> submit(ChargeRequest request);

    /** The charge made for this payment attempt, if any: how recovery asks the gateway what happened. */
    Mono<GatewayCharge> findCharge(String paymentId, int attempt);
}
