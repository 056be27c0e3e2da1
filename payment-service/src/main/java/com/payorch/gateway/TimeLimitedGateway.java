package com.payorch.gateway;

import java.time.Duration;
import reactor.core.publisher.Mono;

/**
 * A {@link PaymentGateway} whose every call ends within `timeout`: a gateway that hangs becomes a
 * {@link GatewayException} (outcome unknown), so it holds up neither a request nor a background job.
 */
public final class TimeLimitedGateway implements PaymentGateway {

    private final PaymentGateway gateway;
    private final Duration timeout;

    public TimeLimitedGateway(PaymentGateway gateway, Duration timeout) {
        this.gateway = gateway;
        this.timeout = timeout;
    }

    @Override
    public String name() {
        return gateway.name();
    }

    @Override
    public Mono<GatewayOutcome> submit(ChargeRequest request) {
        return Mono.defer(() -> gateway.submit(request))
                .timeout(timeout, Mono.error(() -> new GatewayException("no answer from the gateway within " + timeout
                        + " to the submit of payment " + request.paymentId() + " attempt " + request.attempt())));
    }

    @Override
    public Mono<GatewayOutcome> find(ChargeRequest request) {
        return Mono.defer(() -> gateway.find(request))
                .timeout(timeout, Mono.error(() -> new GatewayException("no answer from the gateway within " + timeout
                        + " about the charge of payment " + request.paymentId() + " attempt " + request.attempt())));
    }

    @Override
    public Mono<Void> cancelByReference(ChargeRequest request) {
        return Mono.defer(() -> gateway.cancelByReference(request))
                .timeout(timeout, Mono.error(() -> new GatewayException("no answer from the gateway within " + timeout
                        + " to the cancel of payment " + request.paymentId() + " attempt " + request.attempt())));
    }

    @Override
    public Mono<GatewayOutcome> capture(CaptureRequest request) {
        return Mono.defer(() -> gateway.capture(request))
                .timeout(timeout, Mono.error(() -> new GatewayException("no answer from the gateway within " + timeout
                        + " to capture " + request.number() + " of payment " + request.charge().paymentId())));
    }

    @Override
    public Mono<GatewayOutcome> cancel(CancelRequest request) {
        return Mono.defer(() -> gateway.cancel(request))
                .timeout(timeout, Mono.error(() -> new GatewayException("no answer from the gateway within " + timeout
                        + " to the release of the hold of payment " + request.charge().paymentId())));
    }

    @Override
    public Mono<GatewayOutcome> complete(CompleteRequest request) {
        return Mono.defer(() -> gateway.complete(request))
                .timeout(timeout, Mono.error(() -> new GatewayException("no answer from the gateway within " + timeout
                        + " to the completion of payment " + request.charge().paymentId())));
    }

    @Override
    public Mono<RefundOutcome> refund(RefundRequest request) {
        return Mono.defer(() -> gateway.refund(request))
                .timeout(timeout, Mono.error(() -> new GatewayException("no answer from the gateway within " + timeout
                        + " to refund " + request.refundId())));
    }

    @Override
    public Mono<RefundOutcome> findRefund(RefundRequest request) {
        return Mono.defer(() -> gateway.findRefund(request))
                .timeout(timeout, Mono.error(() -> new GatewayException("no answer from the gateway within " + timeout
                        + " about refund " + request.refundId())));
    }
}
