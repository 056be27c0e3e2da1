package com.payorch.console;

import com.payorch.statemachine.PaymentStatus;
import com.payorch.statemachine.RefundStatus;
import com.payorch.support.SqlLiterals;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * The overview page's figures: payments created in the last hour and day per status and per connector, gateway
 * webhook outcomes over the last day, and the age of each backlog (events not yet relayed, merchant webhook
 * deliveries waiting, refunds waiting for their connector, payments waiting for an outcome, holds waiting for a
 * capture or a cancel, captures sent without an outcome).
 */
@Component
public class Overview {

    /** A count over the last hour and the last day. */
    public record Count(String label, long lastHour, long lastDay) {
    }

    /** One backlog: how many items wait, and how long the oldest has waited (seconds; 0 when none). */
    public record Backlog(String label, long waiting, long oldestSeconds) {
    }

    public record Figures(List<Count> byStatus, List<Count> byConnector, List<Count> webhookOutcomes,
                          List<Backlog> backlogs) {
    }

    private static final String REFUND_PENDING = SqlLiterals.of(RefundStatus.PENDING);
    private static final String UNSETTLED = SqlLiterals.in(PaymentStatus.UNSETTLED);
    private static final String AUTHORIZED = SqlLiterals.of(PaymentStatus.AUTHORIZED);
    private static final String CAPTURING = SqlLiterals.of(PaymentStatus.CAPTURING);

    private final ConsoleReadModel reads;

    public Overview(ConsoleReadModel reads) {
        this.reads = reads;
    }

    public Mono<Figures> figures(MerchantScope scope) {
        return Mono.zip(counts("p.status", scope), counts("p.connector", scope), webhookOutcomes(scope),
                        backlogs(scope))
                .map(all -> new Figures(all.getT1(), all.getT2(), all.getT3(), all.getT4()));
    }

    private Mono<List<Count>> counts(String column, MerchantScope scope) {
        return reads.rows("select " + column + " as label,"
                        + " count(*) filter (where p.created_at > now() - interval '1 hour') as last_hour,"
                        + " count(*) as last_day from payments p"
                        + " where p.created_at > now() - interval '1 day' and " + scope.condition("p.merchant_id")
                        + " group by " + column + " order by " + column, scope, Map.of())
                .map(Overview::count).collectList();
    }

    private Mono<List<Count>> webhookOutcomes(MerchantScope scope) {
        return reads.rows("select r.outcome as label,"
                        + " count(*) filter (where r.received_at > now() - interval '1 hour') as last_hour,"
                        + " count(*) as last_day from webhook_receipts r join payments p on p.id = r.payment_id"
                        + " where r.received_at > now() - interval '1 day' and " + scope.condition("p.merchant_id")
                        + " group by r.outcome"
                        // redeliveries answered as duplicates, counted on their receipt by the latest one's time
                        + " union all select 'duplicate',"
                        + " coalesce(sum(r.duplicates) filter (where r.last_duplicate_at > now() - interval '1 hour'), 0),"
                        + " coalesce(sum(r.duplicates), 0) from webhook_receipts r join payments p on p.id = r.payment_id"
                        + " where r.last_duplicate_at > now() - interval '1 day' and " + scope.condition("p.merchant_id")
                        // no row without duplicates, so a day without webhooks still reads "No webhooks"
                        + " having coalesce(sum(r.duplicates), 0) > 0"
                        + " order by 1", scope, Map.of())
                .map(Overview::count).collectList();
    }

    private Mono<List<Backlog>> backlogs(MerchantScope scope) {
        String events = scope.condition("e.merchant_id");
        String deliveries = scope.condition("d.merchant_id");
        String refunds = scope.condition("r.merchant_id");
        String payments = scope.condition("p.merchant_id");
        return reads.rows("""
                        select 'events waiting for the relay' as label, count(*) as waiting,
                               coalesce(floor(extract(epoch from now() - min(e.created_at))), 0)::bigint as oldest
                        from events e where e.dispatched_at is null and e.parked_at is null and %s
                        union all
                        select 'dead-lettered events', count(*),
                               coalesce(floor(extract(epoch from now() - min(e.parked_at))), 0)::bigint
                        from events e where e.dispatched_at is null and e.parked_at is not null and %s
                        union all
                        select 'merchant webhook deliveries pending', count(*),
                               coalesce(floor(extract(epoch from now() - min(d.created_at))), 0)::bigint
                        from webhook_deliveries d where d.status = 'pending' and %s
                        union all
                        select 'refunds pending at the connector', count(*),
                               coalesce(floor(extract(epoch from now() - min(r.changed_at))), 0)::bigint
                        from refunds r where r.status = %s and %s
                        union all
                        select 'payments PENDING or PROCESSING', count(*),
                               coalesce(floor(extract(epoch from now() - min(p.changed_at))), 0)::bigint
                        from payments p where p.status in %s and %s
                        union all
                        select 'holds AUTHORIZED, not captured or cancelled yet', count(*),
                               coalesce(floor(extract(epoch from now() - min(p.changed_at))), 0)::bigint
                        from payments p where p.status = %s and %s
                        union all
                        select 'captures sent without an outcome (CAPTURING)', count(*),
                               coalesce(floor(extract(epoch from now() - min(p.changed_at))), 0)::bigint
                        from payments p where p.status = %s and %s"""
                        .formatted(events, events, deliveries, REFUND_PENDING, refunds, UNSETTLED, payments,
                                AUTHORIZED, payments, CAPTURING, payments), scope, Map.of())
                .map(row -> new Backlog((String) row.get("label"), number(row.get("waiting")),
                        number(row.get("oldest"))))
                .collectList();
    }

    private static Count count(Map<String, Object> row) {
        return new Count(String.valueOf(row.get("label")), number(row.get("last_hour")), number(row.get("last_day")));
    }

    private static long number(Object value) {
        return value == null ? 0 : ((Number) value).longValue();
    }
}
