package com.payorch.gateway;

import reactor.core.publisher.Mono;

/**
 * The port to a payment connector. Every answer is a {@link GatewayOutcome} that names the attempt it is about.
 * <ul>
 *   <li>{@link #submit} must be idempotent on {@link ChargeRequest#idempotencyKey()}: the same attempt submitted
 *       again returns the charge already made, never a second one. {@link GatewayUnavailableException}: the
 *       request certainly did not reach the connector; any other {@link GatewayException}: the outcome is unknown.
 *   <li>{@link #find} asks what became of an attempt: empty when the connector holds no charge for it.
 * </ul>
 */
public interface PaymentGateway {

    /** The connector's name as the API shows it (`sandbox`, `stripe`, `adyen`). */
    String name();

    Mono<GatewayOutcome> submit(ChargeRequest request);

    Mono<GatewayOutcome> find(ChargeRequest request);
}
