package com.payorch.gateway.sandbox;

import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.stereotype.Component;

/**
 * Switches for tests and demos that make the sandbox misbehave the way real gateways do. Off unless armed.
 */
@Component
public class SandboxFaults {

    private final AtomicInteger responsesToLose = new AtomicInteger();

    /** The next submit records its charge and then fails as if the response were lost on the way back. */
    public void loseNextResponse() {
        responsesToLose.incrementAndGet();
    }

    boolean takeLoseNextResponse() {
        return responsesToLose.getAndUpdate(n -> Math.max(0, n - 1)) > 0;
    }
}
