package com.payorch.console;

import com.payorch.recovery.RecoveryProperties;
import com.payorch.statemachine.PaymentStatus;
import com.payorch.statemachine.RefundStatus;
import com.payorch.support.SqlLiterals;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * The "needs attention" views: payments stuck in PENDING or PROCESSING past the recovery thresholds
 * ({@code payments.recovery.pending-after}, {@code processing-after}), orphaned charges not yet refunded,
 * dead-lettered events, and merchant webhook deliveries that gave up. Each list shows at most {@value #LIMIT} rows,
 * oldest problem first.
 */
@Component
public class NeedsAttention {

    static final int LIMIT = 50;

    private static final String UTC = "'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'";
    private static final String PENDING = SqlLiterals.of(PaymentStatus.PENDING);
    private static final String PROCESSING = SqlLiterals.of(PaymentStatus.PROCESSING);
    private static final String REFUND_SUCCEEDED = SqlLiterals.of(RefundStatus.SUCCEEDED);

    /** The four lists. */
    public record Lists(List<Map<String, Object>> stuck, List<Map<String, Object>> orphaned,
                        List<Map<String, Object>> deadLetters, List<Map<String, Object>> failedDeliveries) {

        public int total() {
            return stuck.size() + orphaned.size() + deadLetters.size() + failedDeliveries.size();
        }
    }

    private final ConsoleReadModel reads;
    private final RecoveryProperties recovery;

    public NeedsAttention(ConsoleReadModel reads, RecoveryProperties recovery) {
        this.reads = reads;
        this.recovery = recovery;
    }

    public Mono<Lists> find(MerchantScope scope) {
        return Mono.zip(stuck(scope), orphaned(scope), deadLetters(scope), failedDeliveries(scope))
                .map(all -> new Lists(all.getT1(), all.getT2(), all.getT3(), all.getT4()));
    }

    private Mono<List<Map<String, Object>>> stuck(MerchantScope scope) {
        return reads.rows("select p.id, p.merchant_id, p.booking_id, p.status, p.connector, p.attempt,"
                        + " to_char(p.changed_at at time zone 'UTC', " + UTC + ") as since,"
                        + " floor(extract(epoch from now() - p.changed_at))::bigint as age_seconds"
                        + " from payments p where " + scope.condition("p.merchant_id")
                        + " and ((p.status = " + PENDING + " and p.changed_at < now() - make_interval(secs => :pending))"
                        + " or (p.status = " + PROCESSING
                        + " and p.changed_at < now() - make_interval(secs => :processing)))"
                        + " order by p.changed_at limit " + LIMIT, scope,
                Map.of("pending", recovery.pendingAfter().toMillis() / 1000.0,
                        "processing", recovery.processingAfter().toMillis() / 1000.0))
                .collectList();
    }

    private Mono<List<Map<String, Object>>> orphaned(MerchantScope scope) {
        return reads.rows("""
                        select a.payment_id, p.merchant_id, a.number, a.connector, a.reference,
                               to_char(a.orphaned_at at time zone 'UTC', %s) as since,
                               r.id as refund_id, coalesce(r.status, 'none yet') as refund_status
                        from payment_attempts a join payments p on p.id = a.payment_id
                        left join refunds r on r.payment_id = a.payment_id and r.attempt = a.number
                             and not r.counts_against_payment
                        where a.orphaned_at is not null and (r.status is null or r.status <> %s) and %s
                        order by a.orphaned_at limit %d""".formatted(UTC, REFUND_SUCCEEDED,
                        scope.condition("p.merchant_id"), LIMIT),
                scope, Map.of()).collectList();
    }

    private Mono<List<Map<String, Object>>> deadLetters(MerchantScope scope) {
        return reads.rows("""
                        select e.id, e.merchant_id, e.type, e.payment_id, e.attempts, e.last_error,
                               to_char(e.parked_at at time zone 'UTC', %s) as since
                        from events e
                        where e.parked_at is not null and e.dispatched_at is null and %s
                        order by e.parked_at limit %d""".formatted(UTC, scope.condition("e.merchant_id"), LIMIT),
                scope, Map.of()).collectList();
    }

    private Mono<List<Map<String, Object>>> failedDeliveries(MerchantScope scope) {
        return reads.rows("""
                        select d.id, d.event_id, d.merchant_id, d.attempt, d.response_status, d.error, e.type,
                               e.payment_id, to_char(d.at at time zone 'UTC', %s) as since
                        from webhook_deliveries d join events e on e.id = d.event_id
                        where d.status = 'failed' and %s
                          and not exists (select 1 from webhook_deliveries later
                                          where later.event_id = d.event_id and later.attempt > d.attempt)
                        order by d.at limit %d""".formatted(UTC, scope.condition("d.merchant_id"), LIMIT),
                scope, Map.of()).collectList();
    }
}
