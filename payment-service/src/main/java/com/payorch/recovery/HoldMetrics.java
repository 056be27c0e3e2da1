package com.payorch.recovery;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.stereotype.Component;

/**
 * The holds' jobs on {@code /actuator/prometheus}:
 * <ul>
 *   <li>{@code payments_holds_expiring}: AUTHORIZED payments whose authorisation lapses within
 *       {@code payments.capture.expiry-margin}, as counted by the expiry job's last run (NaN before the first);</li>
 *   <li>{@code payments_holds_expiry_actions_total{action}}: holds the expiry job cancelled or captured
 *       ({@code action} = {@code cancel} | {@code capture}), counted once the action is recorded;</li>
 *   <li>{@code payments_holds_sends_total{kind, result}}: captures and cancels the expiry and recovery jobs sent or
 *       held back ({@code kind} = {@code capture} | {@code cancel}; {@code result} = {@code applied} (its outcome
 *       moved the payment), {@code unsettled} (an answer that settles nothing yet, or not sent: the connector
 *       could not be reached), {@code failed} (no answer), {@code needs_attention} (not sent: past the capture
 *       key's lifetime; or a cancel unconfirmed past give-up-after, sent again all the same)).</li>
 * </ul>
 */
@Component
class HoldMetrics {

    private final MeterRegistry registry;
    private final AtomicReference<Double> expiring = new AtomicReference<>(Double.NaN);

    HoldMetrics(MeterRegistry registry) {
        this.registry = registry;
        Gauge.builder("payments.holds.expiring", expiring, AtomicReference::get)
                .description("AUTHORIZED payments whose authorisation lapses within payments.capture.expiry-margin,"
                        + " as of the expiry job's last run")
                .register(registry);
    }

    void expiring(long count) {
        expiring.set((double) count);
    }

    void expiryAction(String action) {
        Counter.builder("payments.holds.expiry.actions")
                .description("Holds about to lapse that the expiry job cancelled or captured")
                .tag("action", action)
                .register(registry)
                .increment();
    }

    void send(String kind, String result) {
        Counter.builder("payments.holds.sends")
                .description("Captures and cancels the hold jobs (expiry, recovery) sent or held back, by result")
                .tag("kind", kind)
                .tag("result", result)
                .register(registry)
                .increment();
    }
}
