package com.payorch.testsupport;

import com.payorch.gateway.CancelRequest;
import com.payorch.gateway.CaptureRequest;
import com.payorch.gateway.ChargeRequest;
import com.payorch.gateway.GatewayException;
import com.payorch.gateway.GatewayOutcome;
import com.payorch.gateway.PaymentGateway;
import com.payorch.gateway.RefundOutcome;
import com.payorch.gateway.RefundRequest;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
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
    private final AtomicInteger captureResponsesToLose = new AtomicInteger();
    private final AtomicInteger cancelResponsesToLose = new AtomicInteger();
    private final Queue<String> captureKeys = new ConcurrentLinkedQueue<>();
    private final Queue<String> cancelKeys = new ConcurrentLinkedQueue<>();
    private final AtomicReference<Sinks.Empty<Void>> gate = new AtomicReference<>();
    private final AtomicBoolean loseEveryResponse = new AtomicBoolean();
    private final AtomicReference<LookUps> lookUps = new AtomicReference<>(LookUps.TRUTHFUL);

    /** How the sandbox's look-up ({@code find}) answers. */
    public enum LookUps {
        /** What the sandbox holds. */
        TRUTHFUL,
        /** A {@link GatewayException}: the connector cannot be asked (no evidence either way). */
        FAIL,
        /** "No such charge" even when it holds one: a look-up trusted too early (Stripe's search lags). */
        MISS_CHARGES
    }

    /** While on, every submit records its charge and then fails as if the response were lost. */
    public void loseEveryResponse(boolean on) {
        loseEveryResponse.set(on);
    }

    public void lookUps(LookUps how) {
        lookUps.set(how);
    }

    /** The next submit records its charge and then fails as if the response were lost on the way back. */
    public void loseNextResponse() {
        responsesToLose.incrementAndGet();
    }

    /** The next capture is made and then fails as if its response were lost on the way back. */
    public void loseNextCaptureResponse() {
        captureResponsesToLose.incrementAndGet();
    }

    /** The next release of a hold is made and then fails as if its response were lost on the way back. */
    public void loseNextCancelResponse() {
        cancelResponsesToLose.incrementAndGet();
    }

    /** The connector keys of every capture sent to the sandbox for the payment, in order (resends repeat a key). */
    public List<String> captureKeysSent(String paymentId) {
        return captureKeys.stream().filter(key -> key.startsWith(paymentId + "-")).toList();
    }

    /** The connector keys of every cancel sent to the sandbox for the payment, in order (resends repeat a key). */
    public List<String> cancelKeysSent(String paymentId) {
        return cancelKeys.stream().filter(key -> key.startsWith(paymentId + "-")).toList();
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
                return switch (lookUps.get()) {
                    case TRUTHFUL -> sandbox.find(request);
                    case FAIL -> Mono.error(new GatewayException("sandbox look-up failed for " + request.paymentId()));
                    case MISS_CHARGES -> Mono.empty();
                };
            }

            @Override
            public Mono<Void> cancelByReference(ChargeRequest request) {
                return sandbox.cancelByReference(request);
            }

            @Override
            public Mono<GatewayOutcome> capture(CaptureRequest request) {
                captureKeys.add(request.idempotencyKey());
                return sandbox.capture(request).flatMap(outcome -> take(captureResponsesToLose)
                        ? Mono.error(new GatewayException("sandbox lost the response to capture "
                                + request.idempotencyKey()))
                        : Mono.just(outcome));
            }

            @Override
            public Mono<GatewayOutcome> cancel(CancelRequest request) {
                cancelKeys.add(request.idempotencyKey());
                return sandbox.cancel(request).flatMap(outcome -> take(cancelResponsesToLose)
                        ? Mono.error(new GatewayException("sandbox lost the response to cancel "
                                + request.idempotencyKey()))
                        : Mono.just(outcome));
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

    private static boolean take(AtomicInteger armed) {
        return armed.getAndUpdate(n -> Math.max(0, n - 1)) > 0;
    }

    private boolean takeLoseNextResponse() {
        return loseEveryResponse.get() || responsesToLose.getAndUpdate(n -> Math.max(0, n - 1)) > 0;
    }
}
