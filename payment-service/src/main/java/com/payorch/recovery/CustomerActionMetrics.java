package com.payorch.recovery;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.stereotype.Component;

/**
 * The customer-action expiry on {@code /actuator/prometheus}:
 * <ul>
 *   <li>{@code payments_customer_actions_waiting}: payments waiting for their customer (REQUIRES_ACTION), as counted by
 *       the expiry job's last run (NaN before the first);</li>
 *   <li>{@code payments_customer_actions_overdue}: those of them waiting longer than
 *       {@code payments.customer-action.expires-after}: their cancel is not confirmed by the connector yet (same
 *       run);</li>
 *   <li>{@code payments_customer_actions_expired_total}: payments whose customer action the job expired, counted once
 *       per payment when it records the cancel (the payment FAILS {@code authentication_expired} when the connector
 *       confirms it).</li>
 * </ul>
 */
@Component
class CustomerActionMetrics {

    private final AtomicReference<Double> waiting = new AtomicReference<>(Double.NaN);
    private final AtomicReference<Double> overdue = new AtomicReference<>(Double.NaN);
    private final Counter expired;

    CustomerActionMetrics(MeterRegistry registry) {
        Gauge.builder("payments.customer.actions.waiting", waiting, AtomicReference::get)
                .description("Payments waiting for their customer (REQUIRES_ACTION), as of the expiry job's last run")
                .register(registry);
        Gauge.builder("payments.customer.actions.overdue", overdue, AtomicReference::get)
                .description("Payments waiting for their customer longer than payments.customer-action.expires-after"
                        + " (cancel not confirmed yet), as of the expiry job's last run")
                .register(registry);
        expired = Counter.builder("payments.customer.actions.expired")
                .description("Payments whose customer action the expiry job expired (cancel recorded)")
                .register(registry);
    }

    void counted(OverdueCustomerActions.Waiting counts) {
        waiting.set((double) counts.waiting());
        overdue.set((double) counts.overdue());
    }

    void expired() {
        expired.increment();
    }
}
