package com.payorch.console;

import com.payorch.payments.CustomerActionProperties;
import com.payorch.statemachine.DisputeStatus;
import com.payorch.statemachine.PaymentStatus;
import com.payorch.statemachine.RefundStatus;
import com.payorch.support.SqlLiterals;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.ToDoubleFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Gauges of what needs a person, over every merchant, as the console's "needs attention" counts them:
 * {@code payments_orphaned_charges_unrefunded} (orphaned charges whose refund has not SUCCEEDED),
 * {@code payments_unconfirmed_give_ups} (attempts with an attention reason: recovery has no evidence to settle them),
 * {@code payments_refunds_in_doubt} and {@code payments_customer_actions_overdue} (REQUIRES_ACTION past
 * {@code payments.customer-action.expires-after}: the expiry's cancel is not confirmed yet),
 * {@code payments_disputes_open} and {@code payments_disputes_evidence_overdue} (OPEN disputes whose evidence due
 * date has passed: lost unless the connector already has the evidence). Counted on scrape, one
 * statement over partial indexes, at most once per
 * {@value #FRESH_SECONDS} seconds: a scrape answers the last count at once and, when it is older, starts the next
 * one (NaN until the first count is in, never a false zero).
 */
@Component
public class AttentionMetrics {

    static final int FRESH_SECONDS = 10;

    private static final Logger log = LoggerFactory.getLogger(AttentionMetrics.class);
    private static final String REFUND_SUCCEEDED = SqlLiterals.of(RefundStatus.SUCCEEDED);
    private static final String REFUND_PENDING = SqlLiterals.of(RefundStatus.PENDING);
    private static final String COUNTS = """
            select (select count(*) from payment_attempts a
                    where a.orphaned_at is not null
                      and not exists (select 1 from refunds r
                                      where r.payment_id = a.payment_id and r.attempt = a.number
                                        and not r.counts_against_payment and r.status = %s)) as orphaned,
                   (select count(*) from payment_attempts where attention_reason is not null) as give_ups,
                   (select count(*) from refunds
                    where attention_reason is not null or (status = %s and sends_in_doubt > 0)) as refunds_in_doubt,
                   (select count(*) from payments
                    where status = %s
                      and action_required_at < now() - make_interval(secs => :expiresAfter)) as expired_actions,
                   (select count(*) from disputes where status = %4$s) as disputes_open,
                   (select count(*) from disputes
                    where status = %4$s and evidence_due_by < now()) as disputes_overdue
            """.formatted(REFUND_SUCCEEDED, REFUND_PENDING, SqlLiterals.of(PaymentStatus.REQUIRES_ACTION),
            SqlLiterals.of(DisputeStatus.OPEN));

    private record Counts(double orphaned, double giveUps, double refundsInDoubt, double expiredActions,
                          double disputesOpen, double disputesOverdue, Instant at) {
    }

    private final ConsoleReadModel reads;
    private final Clock clock;
    private final CustomerActionProperties customerAction;
    private final AtomicReference<Counts> last = new AtomicReference<>(
            new Counts(Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Instant.EPOCH));
    private final AtomicBoolean counting = new AtomicBoolean();

    public AttentionMetrics(ConsoleReadModel reads, MeterRegistry registry, Clock clock,
                            CustomerActionProperties customerAction) {
        this.reads = reads;
        this.clock = clock;
        this.customerAction = customerAction;
        gauge(registry, "payments.orphaned.charges.unrefunded", "Orphaned charges whose refund has not succeeded",
                Counts::orphaned);
        gauge(registry, "payments.unconfirmed.give.ups",
                "Payment attempts recovery could not settle on evidence (attention reason set)", Counts::giveUps);
        gauge(registry, "payments.refunds.in.doubt",
                "Refunds whose outcome no connector has confirmed (attention reason, or a lost send while PENDING)",
                Counts::refundsInDoubt);
        gauge(registry, "payments.customer.actions.overdue",
                "Payments waiting for their customer past payments.customer-action.expires-after (REQUIRES_ACTION)",
                Counts::expiredActions);
        gauge(registry, "payments.disputes.open",
                "OPEN disputes: the bank holds the money until the connector rules", Counts::disputesOpen);
        gauge(registry, "payments.disputes.evidence.overdue",
                "OPEN disputes whose evidence due date has passed", Counts::disputesOverdue);
    }

    private void gauge(MeterRegistry registry, String name, String description, ToDoubleFunction<Counts> value) {
        Gauge.builder(name, this, metrics -> value.applyAsDouble(metrics.current()))
                .description(description)
                .register(registry);
    }

    private Counts current() {
        Counts counts = last.get();
        if (Duration.between(counts.at(), clock.instant()).toSeconds() >= FRESH_SECONDS
                && counting.compareAndSet(false, true)) {
            reads.rows(COUNTS, MerchantScope.ALL,
                            Map.of("expiresAfter", customerAction.expiresAfter().toMillis() / 1000.0))
                    .next()
                    .doFinally(signal -> counting.set(false))
                    .subscribe(row -> last.set(new Counts(number(row, "orphaned"), number(row, "give_ups"),
                                    number(row, "refunds_in_doubt"), number(row, "expired_actions"),
                                    number(row, "disputes_open"), number(row, "disputes_overdue"),
                                    clock.instant())),
                            error -> log.warn("Could not count what needs attention for the metrics: {}",
                                    error.toString()));
        }
        return counts;
    }

    private static double number(Map<String, Object> row, String column) {
        return row.get(column) instanceof Number number ? number.doubleValue() : Double.NaN;
    }
}
