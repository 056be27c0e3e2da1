package com.payorch.console;

import com.payorch.payments.CaptureProperties;
import com.payorch.payments.CustomerActionProperties;
import com.payorch.recovery.RecoveryProperties;
import com.payorch.statemachine.DisputeStatus;
import com.payorch.statemachine.PaymentStatus;
import com.payorch.statemachine.RefundStatus;
import com.payorch.support.SqlLiterals;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * The "needs attention" views, each row saying why: payments stuck in PENDING, PROCESSING or CAPTURING past the
 * recovery thresholds ({@code payments.recovery.pending-after}, {@code processing-after}, the latter also for a
 * capture sent with no outcome); holds about to lapse (AUTHORIZED with {@code authorization_expires_at} within
 * {@code payments.capture.expiry-margin}: the expiry policy is due, or overdue if the row stays); attempts recovery could not settle
 * on evidence (an unconfirmed give-up, an attempt past its connector's key lifetime, a cancel by reference awaiting
 * its confirmation: {@code payment_attempts.attention_reason}); payments waiting for their customer (REQUIRES_ACTION)
 * longer than {@code payments.customer-action.expires-after}, whose expiry's cancel the connector has not confirmed yet; refunds in doubt (a send whose answer was lost and
 * no outcome confirmed yet, or {@code refunds.attention_reason}); orphaned charges not yet refunded; webhook
 * signature failures of the last {@value #SIGNATURE_FAILURE_DAYS} days (those that name no merchant only for users
 * who see all merchants); dead-lettered events; merchant webhook deliveries that gave up; and OPEN disputes, whose
 * evidence is due at the connector. Each list shows at most {@value #LIMIT} rows, oldest problem first (signature
 * failures: newest first; disputes: evidence due soonest first).
 */
@Component
public class NeedsAttention {

    static final int LIMIT = 50;
    static final int SIGNATURE_FAILURE_DAYS = 7;

    private static final String UTC = "'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'";
    private static final String PENDING = SqlLiterals.of(PaymentStatus.PENDING);
    private static final String PROCESSING = SqlLiterals.of(PaymentStatus.PROCESSING);
    private static final String AUTHORIZED = SqlLiterals.of(PaymentStatus.AUTHORIZED);
    private static final String CAPTURING = SqlLiterals.of(PaymentStatus.CAPTURING);
    private static final String REQUIRES_ACTION = SqlLiterals.of(PaymentStatus.REQUIRES_ACTION);
    private static final String REFUND_SUCCEEDED = SqlLiterals.of(RefundStatus.SUCCEEDED);
    private static final String REFUND_PENDING = SqlLiterals.of(RefundStatus.PENDING);
    private static final String REFUND_FAILED = SqlLiterals.of(RefundStatus.FAILED);
    private static final String DISPUTE_OPEN = SqlLiterals.of(DisputeStatus.OPEN);

    /** The lists. */
    public record Lists(List<Map<String, Object>> stuck, List<Map<String, Object>> expiringHolds,
                        List<Map<String, Object>> attempts,
                        List<Map<String, Object>> refundsInDoubt, List<Map<String, Object>> orphaned,
                        List<Map<String, Object>> signatureFailures, List<Map<String, Object>> deadLetters,
                        List<Map<String, Object>> failedDeliveries, List<Map<String, Object>> expiredActions,
                        List<Map<String, Object>> openDisputes) {

        public int total() {
            return stuck.size() + expiringHolds.size() + attempts.size() + refundsInDoubt.size() + orphaned.size()
                    + signatureFailures.size() + deadLetters.size() + failedDeliveries.size() + expiredActions.size()
                    + openDisputes.size();
        }
    }

    private final ConsoleReadModel reads;
    private final RecoveryProperties recovery;
    private final CaptureProperties capture;
    private final CustomerActionProperties customerAction;

    public NeedsAttention(ConsoleReadModel reads, RecoveryProperties recovery, CaptureProperties capture,
                          CustomerActionProperties customerAction) {
        this.reads = reads;
        this.recovery = recovery;
        this.capture = capture;
        this.customerAction = customerAction;
    }

    public Mono<Lists> find(MerchantScope scope) {
        return Mono.zip(stuck(scope), expiringHolds(scope), attempts(scope), refundsInDoubt(scope), orphaned(scope),
                        signatureFailures(scope), deadLetters(scope), failedDeliveries(scope))
                .zipWith(Mono.zip(expiredActions(scope), openDisputes(scope)))
                .map(both -> {
                    var all = both.getT1();
                    return new Lists(all.getT1(), all.getT2(), all.getT3(), all.getT4(), all.getT5(), all.getT6(),
                            all.getT7(), all.getT8(), both.getT2().getT1(), both.getT2().getT2());
                });
    }

    /**
     * OPEN disputes: the bank holds the money until the connector rules; the merchant's evidence must reach the
     * connector (its dashboard or API, not this service) before {@code evidence_due_by}, or the dispute is lost.
     * {@code due_in} says how long is left (or how long it is overdue); a dispute no connector gave a due date for
     * comes last.
     */
    private Mono<List<Map<String, Object>>> openDisputes(MerchantScope scope) {
        return reads.rows("""
                        select d.id, d.payment_id, d.merchant_id, d.amount, d.currency, d.reason, d.connector,
                               d.connector_reference,
                               to_char(d.evidence_due_by at time zone 'UTC', %s) as due_by,
                               floor(extract(epoch from d.evidence_due_by - now()))::bigint as seconds_left,
                               coalesce(d.evidence_due_by < now(), false) as overdue
                        from disputes d
                        where d.status = %s and %s
                        order by d.evidence_due_by nulls last, d.created_at, d.id limit %d
                        """.formatted(UTC, DISPUTE_OPEN, scope.condition("d.merchant_id"), LIMIT),
                        scope, Map.of())
                .map(row -> {
                    Map<String, Object> shown = new LinkedHashMap<>(row);
                    shown.put("due_in", dueIn(row.get("seconds_left") instanceof Number n ? n.longValue() : null));
                    return shown;
                })
                .collectList();
    }

    /** {@code in 2d 03h}, {@code overdue by 45m}, or {@code no due date given}. */
    static String dueIn(@Nullable Long secondsLeft) {
        if (secondsLeft == null) {
            return "no due date given";
        }
        long seconds = Math.abs(secondsLeft);
        long days = seconds / 86_400;
        long hours = seconds % 86_400 / 3600;
        long minutes = seconds % 3600 / 60;
        String span = days > 0 ? days + "d " + String.format("%02dh", hours)
                : hours > 0 ? hours + "h " + String.format("%02dm", minutes)
                : minutes + "m";
        return secondsLeft < 0 ? "overdue by " + span : "in " + span;
    }

    /**
     * Payments whose customer did not act in time: the expiry should have cancelled their attempt; one that stays
     * here is waiting for the connector to confirm that cancel (or the expiry is not running).
     */
    private Mono<List<Map<String, Object>>> expiredActions(MerchantScope scope) {
        return reads.rows("select p.id, p.merchant_id, p.booking_id, p.amount, p.currency, p.connector,"
                        + " to_char(p.action_required_at at time zone 'UTC', " + UTC + ") as since,"
                        + " floor(extract(epoch from now() - p.action_required_at))::bigint as age_seconds,"
                        + " p.cancel_requested_at is not null as cancel_requested"
                        + " from payments p where " + scope.condition("p.merchant_id")
                        + " and p.status = " + REQUIRES_ACTION
                        + " and p.action_required_at < now() - make_interval(secs => :expiresAfter)"
                        + " order by p.action_required_at, p.id limit " + LIMIT, scope,
                Map.of("expiresAfter", customerAction.expiresAfter().toMillis() / 1000.0))
                .collectList();
    }

    /**
     * Holds whose authorisation lapses within the expiry margin: the expiry policy ({@code payments.capture.on-expiry})
     * should act on them now; one that stays here past its expiry was neither captured nor released in time.
     */
    private Mono<List<Map<String, Object>>> expiringHolds(MerchantScope scope) {
        return reads.rows("select p.id, p.merchant_id, p.booking_id, p.amount, p.currency, p.connector,"
                        + " to_char(p.authorization_expires_at at time zone 'UTC', " + UTC + ") as expires_at,"
                        + " floor(extract(epoch from p.authorization_expires_at - now()))::bigint as seconds_left,"
                        + " p.cancel_requested_at is not null as cancel_requested"
                        + " from payments p where " + scope.condition("p.merchant_id")
                        + " and p.status = " + AUTHORIZED
                        + " and p.authorization_expires_at <= now() + make_interval(secs => :margin)"
                        + " order by p.authorization_expires_at, p.id limit " + LIMIT, scope,
                Map.of("margin", capture.expiryMargin().toMillis() / 1000.0))
                .collectList();
    }

    /** Attempts recovery could not settle on evidence; the reason is recovery's own words. */
    private Mono<List<Map<String, Object>>> attempts(MerchantScope scope) {
        return reads.rows("""
                        select a.payment_id, p.merchant_id, a.number, a.connector, a.reference, p.status,
                               a.attention_reason as reason,
                               to_char(a.attention_since at time zone 'UTC', %s) as since
                        from payment_attempts a join payments p on p.id = a.payment_id
                        where a.attention_reason is not null and %s
                        order by a.attention_since nulls last limit %d""".formatted(UTC,
                        scope.condition("p.merchant_id"), LIMIT),
                scope, Map.of()).collectList();
    }

    /**
     * Refunds whose outcome nobody has confirmed: marked for attention, or PENDING after a send whose answer was
     * lost (a resend's refusal does not prove the first send refunded nothing).
     */
    private Mono<List<Map<String, Object>>> refundsInDoubt(MerchantScope scope) {
        return reads.rows("""
                        select r.id, r.payment_id, r.merchant_id, r.connector, r.status, r.amount, r.currency,
                               r.sends_in_doubt,
                               coalesce(r.attention_reason, r.sends_in_doubt || ' send(s) without an answer; waiting'
                                   || ' for the connector to confirm an outcome') as reason,
                               to_char(coalesce(r.attention_since, r.created_at) at time zone 'UTC', %s) as since
                        from refunds r
                        where (r.attention_reason is not null or (r.status = %s and r.sends_in_doubt > 0)) and %s
                        order by coalesce(r.attention_since, r.created_at) limit %d""".formatted(UTC,
                        REFUND_PENDING, scope.condition("r.merchant_id"), LIMIT),
                scope, Map.of()).collectList();
    }

    /** Requests and items whose signature matched no key: never applied; someone may be forging, or a key rotated. */
    private Mono<List<Map<String, Object>>> signatureFailures(MerchantScope scope) {
        return reads.rows("""
                        select f.id, f.connector, f.merchant_id, f.detail,
                               to_char(f.at at time zone 'UTC', %s) as since
                        from webhook_signature_failures f
                        where f.at > now() - make_interval(days => %d) and %s
                        order by f.at desc limit %d""".formatted(UTC, SIGNATURE_FAILURE_DAYS,
                        scope.condition("f.merchant_id"), LIMIT),
                scope, Map.of()).collectList();
    }

    private Mono<List<Map<String, Object>>> stuck(MerchantScope scope) {
        return reads.rows("select p.id, p.merchant_id, p.booking_id, p.status, p.connector, p.attempt,"
                        + " to_char(p.changed_at at time zone 'UTC', " + UTC + ") as since,"
                        + " floor(extract(epoch from now() - p.changed_at))::bigint as age_seconds"
                        + " from payments p where " + scope.condition("p.merchant_id")
                        + " and ((p.status = " + PENDING + " and p.changed_at < now() - make_interval(secs => :pending))"
                        + " or (p.status in (" + PROCESSING + ", " + CAPTURING + ")"
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
                               r.id as refund_id, coalesce(r.status, 'none yet') as refund_status,
                               case when r.id is null then 'the money was taken after the payment had moved on;'
                                        || ' its automatic refund is not created yet'
                                    when r.status = %s then 'its latest automatic refund failed ('
                                        || coalesce(r.failure_reason, 'no reason given') || '); a new one is made'
                                        || ' after a backoff: check the connector if this stays'
                                    else 'its automatic refund is sent; waiting for the connector to confirm it'
                               end as reason
                        from payment_attempts a join payments p on p.id = a.payment_id
                        left join lateral (select r.id, r.status, r.failure_reason from refunds r
                                           where r.payment_id = a.payment_id and r.attempt = a.number
                                             and not r.counts_against_payment
                                           order by r.created_at desc, r.id desc limit 1) r on true
                        where a.orphaned_at is not null and (r.status is null or r.status <> %s) and %s
                        order by a.orphaned_at limit %d""".formatted(UTC, REFUND_FAILED, REFUND_SUCCEEDED,
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
