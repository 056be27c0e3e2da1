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
 *   <li>{@code payments_customer_actions_expired_total}: payments whose customer action the job expired, counted once
 *       per payment when it records the cancel (the payment FAILS {@code authentication_expired} when the connector
 *       confirms it).</li>
 * </ul>
 * Those waiting longer than {@code payments.customer-action.expires-after} are the console's "needs attention" gauge
 * {@code payments_customer_actions_overdue} ({@code console.AttentionMetrics}), counted once for every list there.
 */
@Component
class CustomerActionMetrics {

    private final AtomicReference<Double> waiting = new AtomicReference<>(Double.NaN);
    private final Counter expired;

    CustomerActionMetrics(MeterRegistry registry) {
        Gauge.builder("payments.customer.actions.waiting", waiting, AtomicReference::get)
                .description("Payments waiting for their customer (REQUIRES_ACTION), as of the expiry job's last run")
                .register(registry);
        expired = Counter.builder("payments.customer.actions.expired")
                .description("Payments whose customer action the expiry job expired (cancel recorded)")
                .register(registry);
    }

    void counted(OverdueCustomerActions.Waiting counts) {
        waiting.set((double) counts.waiting());
    }

    void expired() {
        expired.increment();
    }
}
