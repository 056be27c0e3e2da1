package com.payorch.gateway.sandbox;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * Switches for tests and demos that make the sandbox misbehave the way real gateways do. Off unless armed.
 */
@Component
public class SandboxFaults {

    private final AtomicInteger responsesToLose = new AtomicInteger();
    private final AtomicReference<Sinks.Empty<Void>> gate = new AtomicReference<>();

    /** The next submit records its charge and then fails as if the response were lost on the way back. */
    public void loseNextResponse() {
        responsesToLose.incrementAndGet();
    }

    /** Submits wait, before charging, until the returned gate is opened with {@code tryEmitEmpty()}. */
    public Sinks.Empty<Void> holdSubmits() {
        Sinks.Empty<Void> newGate = Sinks.empty();
        gate.set(newGate);
        return newGate;
    }

    Mono<Void> waitWhileHeld() {
        Sinks.Empty<Void> current = gate.get();
        return current == null ? Mono.empty() : current.asMono();
    }

    boolean takeLoseNextResponse() {
        return responsesToLose.getAndUpdate(n -> Math.max(0, n - 1)) > 0;
    }
}
