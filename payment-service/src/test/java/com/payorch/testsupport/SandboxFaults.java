package com.payorch.testsupport;

import com.payorch.gateway.ChargeRequest;
import com.payorch.gateway.GatewayException;
import com.payorch.gateway.GatewayOutcome;
import com.payorch.gateway.PaymentGateway;
import com.payorch.gateway.RefundOutcome;
import com.payorch.gateway.RefundRequest;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * Switches that make the sandbox connector misbehave the way real gateways do, off unless armed: a test's
 * decorator around the sandbox's gateway ({@link SandboxFaultsConfiguration} puts it there, inside the service's
 * time limit, where the sandbox's own code used to carry these switches).
 */
public class SandboxFaults {

    private final AtomicInteger responsesToLose = new AtomicInteger();
    private final AtomicReference<Sinks.Empty<Void>> gate = new AtomicReference<>();

    /** The next submit records its charge and then fails as if the response were lost on the way back. */
    public void loseNextResponse() {
        responsesToLose.incrementAndGet();
    }

    /** Submits and refunds wait, before charging, until the returned gate is opened with {@code tryEmitEmpty()}. */
    public Sinks.Empty<Void> holdSubmits() {
        Sinks.Empty<Void> newGate = Sinks.empty();
        gate.set(newGate);
        return newGate;
    }

    /** The sandbox's gateway with these switches in front of it. */
    PaymentGateway around(PaymentGateway sandbox) {
        return new PaymentGateway() {
            @Override
            public String name() {
                return sandbox.name();
            }

            @Override
            public Mono<GatewayOutcome> submit(ChargeRequest request) {
                return waitWhileHeld(request.paymentMethod())
                        .then(Mono.defer(() -> sandbox.submit(request)))
                        .flatMap(outcome -> takeLoseNextResponse()
                                ? Mono.error(new GatewayException("sandbox lost the response for "
                                        + request.paymentId()))
                                : Mono.just(outcome));
            }

            @Override
            public Mono<GatewayOutcome> find(ChargeRequest request) {
                return sandbox.find(request);
            }

            @Override
            public Mono<RefundOutcome> refund(RefundRequest request) {
                return waitWhileHeld(null).then(Mono.defer(() -> sandbox.refund(request)));
            }

            @Override
            public Mono<RefundOutcome> findRefund(RefundRequest request) {
                return sandbox.findRefund(request);
            }
        };
    }

    /** The sandbox refuses `pm_card_unavailable` at once, held or not: the hold is only in front of a charge. */
    private Mono<Void> waitWhileHeld(String paymentMethod) {
        Sinks.Empty<Void> current = gate.get();
        return current == null || "pm_card_unavailable".equals(paymentMethod) ? Mono.empty() : current.asMono();
    }

    private boolean takeLoseNextResponse() {
        return responsesToLose.getAndUpdate(n -> Math.max(0, n - 1)) > 0;
    }
}
