package com.payorch.payments;

import com.payorch.statemachine.PaymentStatus;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.stereotype.Component;

/**
 * Counters on `/actuator/prometheus`: transitions by from/to/source, idempotent replays and conflicts by reason,
 * webhook outcomes, orphaned charges. Counted when the work is done in memory; a rolled-back transaction may have been counted.
 */
@Component
public class PaymentMetrics {

    private final MeterRegistry registry;

    public PaymentMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    void transition(PaymentStatus from, PaymentStatus to, TransitionSource source) {
        registry.counter("payments.transitions", "from", from == null ? "none" : from.name(), "to", to.name(),
                "source", source.value()).increment();
    }

    public void idempotency(String outcome) {
        registry.counter("payments.idempotency.requests", "outcome", outcome).increment();
    }

    /** A charge a connector reported as taken that backs no payment (refunded automatically): {@code payments_orphaned_charges_total}. */
    void orphanedCharge(String connector) {
        registry.counter("payments.orphaned.charges", "connector", connector).increment();
    }

    public void webhook(String outcome) {
        registry.counter("payments.webhooks", "outcome", outcome).increment();
    }
}
