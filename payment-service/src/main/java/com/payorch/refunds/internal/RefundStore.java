package com.payorch.refunds.internal;

import com.payorch.events.Event;
import com.payorch.events.EventStore;
import com.payorch.payments.Payment;
import com.payorch.refunds.Refund;
import com.payorch.statemachine.BookingStatus;
import com.payorch.statemachine.PaymentStatus;
import com.payorch.statemachine.RefundStatus;
import com.payorch.support.Page;
import com.payorch.support.PageRequest;
import com.payorch.support.SqlLiterals;
import com.payorch.support.SqlPart;
import com.payorch.support.UnknownCursor;
import io.r2dbc.spi.Readable;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.r2dbc.core.Parameter;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * SQL for refunds. The invariant "a payment's PENDING and SUCCEEDED refunds never exceed its captured amount" (the
 * whole amount of an automatic payment; what a hold's capture took) is kept by the
 * database, in the statement that inserts a refund: it locks the payment row (`FOR UPDATE`, which under READ
 * COMMITTED waits for a concurrent writer and then sees its committed row), raises `amount_reserved` with a
 * conditional UPDATE (COMPLETED, and the new total within the amount) and inserts the refund only for the row that
 * UPDATE matched. Concurrent inserts on any instance queue on that lock, each deciding on the row the previous one
 * committed; nothing is read first and written later in Java. The CHECK `amount_reserved <= amount_captured` (V20)
 * backs it. Money a dispute holds (`amount_disputed`, OPEN and LOST disputes, V24) is not refundable: the same UPDATE
 * counts it, and a dispute report writes it under the same row lock ({@code DisputeStore}), so a refund racing a
 * dispute decides on the amount as the dispute left it (or the dispute comes after it).
 */
@Component
public class RefundStore {

    private static final String PENDING = SqlLiterals.of(RefundStatus.PENDING);
    private static final String SUCCEEDED = SqlLiterals.of(RefundStatus.SUCCEEDED);
    private static final String FAILED = SqlLiterals.of(RefundStatus.FAILED);
    /** The predicate of the unique index refunds_one_live_per_orphaned_attempt (V19), for ON CONFLICT. */
    private static final String LIVE_ORPHAN_REFUND = "not counts_against_payment and status <> " + FAILED;
    private static final String PAYMENT_COMPLETED = SqlLiterals.of(PaymentStatus.COMPLETED);
    private static final String BOOKING_ACTIVE = SqlLiterals.of(BookingStatus.ACTIVE);
    private static final String BOOKING_CANCELLED = SqlLiterals.of(BookingStatus.CANCELLED);

    private static final String COLUMNS = """
            id, merchant_id, payment_id, attempt, amount, currency, status, reason, failure_reason, connector,
            charge_reference, connector_reference, counts_against_payment, version, created_at, updated_at""";
    /** What a read returns: the inserted columns and the doubt and attention the service keeps about the refund. */
    private static final String READ = COLUMNS + ", sends_in_doubt, attention_reason";

    private final DatabaseClient db;
    private final EventStore events;

    public RefundStore(DatabaseClient db, EventStore events) {
        this.db = db;
        this.events = events;
    }

    /**
     * Inserts a PENDING refund of the payment's current (charged) attempt and its `refund.created` event, reserving
     * {@code amount} (null: all that is still refundable, neither reserved nor disputed) of the payment, in one
     * statement. Empty when the payment
     * is not COMPLETED or the amount does not fit: nothing was written then.
     */
    public Mono<Refund> insertReserving(String refundId, Payment payment, @Nullable Long amount, @Nullable String reason,
                                 Event created, Instant now) {
        SqlPart event = events.insertFrom("created_event", "refund_payment", created,
                "jsonb_build_object('amount', amount)");
        return db.sql("""
                        with target as (
                            select id, coalesce(:amount, amount_captured - amount_reserved - amount_disputed) as refunded
                            from payments
                            where id = :payment and merchant_id = :merchant and status = """ + PAYMENT_COMPLETED + """
                            for update),
                        reserved as (
                            update payments p
                            set amount_reserved = p.amount_reserved + t.refunded
                            from target t
                            where p.id = t.id and t.refunded >= 1
                              and p.amount_reserved + t.refunded + p.amount_disputed <= p.amount_captured
                            returning p.id, p.merchant_id, p.attempt, p.connector, p.currency, t.refunded),
                        refund as (
                            insert into refunds (""" + COLUMNS + """
                                )
                            select :id, r.merchant_id, r.id, r.attempt, r.refunded, r.currency, """ + PENDING + """
                            , :reason,
                                   null, r.connector, a.reference, null, true, 1, :now, :now
                            from reserved r
                            join payment_attempts a on a.payment_id = r.id and a.number = r.attempt
                            returning\s""" + READ + """
                            ),
                        refund_payment as (select payment_id as id, amount from refund),
                        """ + event.sql() + """
                        select\s""" + READ + " from refund")
                .bind("amount", Parameter.fromOrEmpty(amount, Long.class))
                .bind("payment", payment.id())
                .bind("merchant", payment.merchantId())
                .bind("id", refundId)
                .bind("reason", Parameter.fromOrEmpty(reason, String.class))
                .bind("now", now)
                .bindValues(event.values())
                .map(RefundStore::refund)
                .one();
    }

    /**
     * Inserts the PENDING refund of an orphaned charge (attempt {@code attempt}, which is not the payment's current
     * one) for its whole amount; it reserves nothing of the payment's amount. At most one per attempt: empty when
     * it exists already.
     */
    public Mono<Refund> insertOrphanRefund(String refundId, Payment payment, int attempt, Event created, Instant now) {
        SqlPart event = events.insertFrom("created_event", "refund_payment", created, null);
        return db.sql("""
                        with refund as (
                            insert into refunds (""" + COLUMNS + """
                                )
                            select :id, p.merchant_id, p.id, a.number, p.amount, p.currency, """ + PENDING + """
                            , 'orphaned_charge',
                                   null, a.connector, a.reference, null, false, 1, :now, :now
                            from payments p join payment_attempts a on a.payment_id = p.id and a.number = :attempt
                            where p.id = :payment
                            on conflict (payment_id, attempt) where\s""" + LIVE_ORPHAN_REFUND + """
                            do nothing
                            returning\s""" + READ + """
                            ),
                        refund_payment as (select payment_id as id from refund),
                        """ + event.sql() + """
                        select\s""" + READ + " from refund")
                .bind("id", refundId)
                .bind("payment", payment.id())
                .bind("attempt", attempt)
                .bind("now", now)
                .bindValues(event.values())
                .map(RefundStore::refund)
                .one();
    }

    /** Where a settled refund leaves the payment and its booking. */
    public record Settled(long amountRefunded, boolean bookingCancelled) {
    }

    /**
     * Moves a PENDING refund (still at {@code expectedVersion}) to SUCCEEDED or FAILED with its event, in one
     * statement. A refund that counts against its payment moves the payment's counters along: SUCCEEDED adds to
     * `amount_refunded`, FAILED gives its reservation back. When `amount_refunded` reaches the amount, the booking
     * the payment activated becomes CANCELLED (only if it is not already) with `booking.cancelled`: the payment row's
     * lock orders concurrent settlements, so exactly one of them sees the total reach the amount. Empty when the
     * refund is no longer at that version (the caller re-reads).
     */
    public Mono<Settled> settle(Refund refund, RefundStatus to, @Nullable String failureReason,
                         @Nullable String connectorReference, @Nullable String attentionReason, Event settledEvent,
                         Event cancelledEvent, Instant now) {
        boolean succeeded = to == RefundStatus.SUCCEEDED;
        SqlPart refundEvent = events.insertFrom("refund_event", "changed_payment", settledEvent, null);
        SqlPart cancelEvent = events.insertFrom("cancel_event", "cancelled_payment", cancelledEvent, null);
        return db.sql("""
                        with changed as (
                            update refunds
                            set status = :status, failure_reason = :failureReason,
                                connector_reference = coalesce(connector_reference, :reference),
                                attention_reason = :attention,
                                attention_since = case when cast(:attention as text) is null then null
                                                       else coalesce(attention_since, :now) end,
                                version = version + 1, updated_at = :now, changed_at = now()
                            where id = :id and version = :expectedVersion and status = """ + PENDING + """
                            returning id, payment_id, amount, counts_against_payment),
                        changed_payment as (select payment_id as id from changed),
                        paid as (
                            update payments p
                            set amount_refunded = p.amount_refunded + case when :succeeded then c.amount else 0 end,
                                amount_reserved = p.amount_reserved - case when :succeeded then 0 else c.amount end
                            from changed c
                            where p.id = c.payment_id and c.counts_against_payment
                            returning p.id, p.merchant_id, p.booking_id, p.amount_captured, p.amount_refunded),
                        cancelled as (
                            update bookings b
                            set status = """ + BOOKING_CANCELLED + """
                            , cancelled_at = :now, updated_at = :now, version = b.version + 1
                            from paid
                            where :succeeded and paid.amount_refunded = paid.amount_captured
                              and b.merchant_id = paid.merchant_id and b.id = paid.booking_id
                              and b.payment_id = paid.id and b.status = """ + BOOKING_ACTIVE + """
                            returning b.payment_id as id),
                        cancelled_payment as (select id from cancelled),
                        """ + refundEvent.sql() + ", " + cancelEvent.sql() + """
                        select (select amount_refunded from paid) as amount_refunded,
                               exists (select 1 from cancelled) as cancelled
                        from changed""")
                .bind("status", to.name())
                .bind("failureReason", Parameter.fromOrEmpty(failureReason, String.class))
                .bind("reference", Parameter.fromOrEmpty(connectorReference, String.class))
                .bind("attention", Parameter.fromOrEmpty(attentionReason, String.class))
                .bind("now", now)
                .bind("id", refund.id())
                .bind("expectedVersion", refund.version())
                .bind("succeeded", succeeded)
                .bindValues(refundEvent.values())
                .bindValues(cancelEvent.values())
                .map(row -> {
                    Long refunded = row.get("amount_refunded", Long.class);
                    return new Settled(refunded == null ? -1 : refunded,
                            Boolean.TRUE.equals(row.get("cancelled", Boolean.class)));
                })
                .one();
    }

    /**
     * Moves a SUCCEEDED refund (still at {@code expectedVersion}) to FAILED because its connector reversed it, with
     * its `refund.reversed` event, in one statement: a refund that counts against its payment lowers the payment's
     * `amount_refunded` and `amount_reserved` by its amount (refundable again); the booking is left as it is (a
     * CANCELLED booking stays CANCELLED). An orphaned charge's refund gets {@code orphanAttention} instead. Emits the
     * payment's `amount_refunded` after it (-1 for an orphaned charge's refund); empty when the refund is no longer
     * at that version or no longer SUCCEEDED.
     */
    public Mono<Long> reverse(Refund refund, String failureReason, String orphanAttention, Event reversedEvent,
                              Instant now) {
        SqlPart event = events.insertFrom("reversed_event", "changed_payment", reversedEvent, null);
        return db.sql("""
                        with changed as (
                            update refunds
                            set status = """ + FAILED + """
                                , failure_reason = :failureReason, reversed_at = :now,
                                attention_reason = case when counts_against_payment then null else :attention end,
                                attention_since = case when counts_against_payment then null else :now end,
                                version = version + 1, updated_at = :now, changed_at = now()
                            where id = :id and version = :expectedVersion and status = """ + SUCCEEDED + """
                            returning id, payment_id, amount, counts_against_payment),
                        changed_payment as (select payment_id as id from changed),
                        paid as (
                            update payments p
                            set amount_refunded = p.amount_refunded - c.amount,
                                amount_reserved = p.amount_reserved - c.amount
                            from changed c
                            where p.id = c.payment_id and c.counts_against_payment
                            returning p.amount_refunded),
                        """ + event.sql() + """
                        select coalesce((select amount_refunded from paid), -1) as amount_refunded from changed""")
                .bind("failureReason", failureReason)
                .bind("attention", orphanAttention)
                .bind("now", now)
                .bind("id", refund.id())
                .bind("expectedVersion", refund.version())
                .bindValues(event.values())
                .map(row -> row.get("amount_refunded", Long.class))
                .one();
    }

    /**
     * Counts a send of a PENDING refund whose answer was lost: the connector may have refunded, so a later refusal
     * of a resend is no proof that nothing was refunded. Its own statement, so it stays when the caller fails.
     */
    public Mono<Void> countSendInDoubt(String refundId) {
        return db.sql("update refunds set sends_in_doubt = sends_in_doubt + 1 where id = :id and status = " + PENDING)
                .bind("id", refundId)
                .then();
    }

    /** Says why a person must look at a PENDING refund (the first reason's time is kept). */
    public Mono<Void> needsAttention(String refundId, String reason, Instant now) {
        return db.sql("""
                        update refunds set attention_reason = :reason, attention_since = coalesce(attention_since, :now)
                        where id = :id and status = """ + PENDING)
                .bind("reason", reason)
                .bind("now", now)
                .bind("id", refundId)
                .then();
    }

    /** The refund of an orphaned charge succeeded: the failed ones before it for that charge need no person now. */
    public Mono<Void> clearOrphanAttention(String paymentId, int attempt) {
        return db.sql("""
                        update refunds set attention_reason = null, attention_since = null
                        where payment_id = :payment and attempt = :attempt and not counts_against_payment
                          and attention_reason is not null""")
                .bind("payment", paymentId)
                .bind("attempt", attempt)
                .then();
    }

    /** The latest failed refund of an orphaned charge that is due for another try, and how many have failed. */
    public record FailedOrphanRefund(Refund latest, int failures) {
    }

    /**
     * Orphaned charges whose refunds all FAILED (none live, none reversed: a reversed one needs a person), whose latest
     * failure is older than {@code baseSeconds} × 2^(failures − 1), at most {@code maxSeconds}: each charge once,
     * with its latest failed refund.
     */
    public Flux<FailedOrphanRefund> failedOrphanRefundsDue(double baseSeconds, double maxSeconds, int limit) {
        return db.sql("""
                        select f.*, n.failures from (
                            select distinct on (payment_id, attempt)\s""" + READ + """
                                , changed_at
                            from refunds
                            where status = """ + FAILED + """
                              and not counts_against_payment and reversed_at is null and attention_reason is not null
                            order by payment_id, attempt, changed_at desc) f
                        cross join lateral (
                            select count(*)::int as failures from refunds x
                            where x.payment_id = f.payment_id and x.attempt = f.attempt
                              and not x.counts_against_payment and x.status = """ + FAILED + """
                              and x.reversed_at is null) n
                        where not exists (
                                select 1 from refunds o
                                where o.payment_id = f.payment_id and o.attempt = f.attempt
                                  and not o.counts_against_payment
                                  and (o.status <> """ + FAILED + """
                                       or o.reversed_at is not null))
                          and f.changed_at < now() - make_interval(secs => least(:max, :base * power(2, n.failures - 1)))
                        order by f.changed_at limit :limit""")
                .bind("base", baseSeconds)
                .bind("max", maxSeconds)
                .bind("limit", limit)
                .map(row -> new FailedOrphanRefund(refund(row), row.get("failures", Integer.class)))
                .all();
    }

    /**
     * A new PENDING refund of the orphaned charge {@code failed} gave back (a new id: a new idempotency key at the
     * connector), with its `refund.created` event; empty when a live one exists already (the unique index).
     */
    public Mono<Refund> insertOrphanRetry(Refund failed, String refundId, Event created, Instant now) {
        SqlPart event = events.insertFrom("created_event", "refund_payment", created, null);
        return db.sql("""
                        with refund as (
                            insert into refunds (""" + COLUMNS + """
                                )
                            select :id, merchant_id, payment_id, attempt, amount, currency, """ + PENDING + """
                            , reason,
                                   null, connector, charge_reference, null, false, 1, :now, :now
                            from refunds where id = :failed and not counts_against_payment
                            on conflict (payment_id, attempt) where\s""" + LIVE_ORPHAN_REFUND + """
                            do nothing
                            returning\s""" + READ + """
                            ),
                        refund_payment as (select payment_id as id from refund),
                        """ + event.sql() + """
                        select\s""" + READ + " from refund")
                .bind("id", refundId)
                .bind("failed", failed.id())
                .bind("now", now)
                .bindValues(event.values())
                .map(RefundStore::refund)
                .one();
    }

    /** Records the connector's id of a PENDING refund once it is known (no version change: nothing decided). */
    public Mono<Void> recordReference(String refundId, String connectorReference) {
        return db.sql("""
                        update refunds set connector_reference = :reference
                        where id = :id and connector_reference is null""")
                .bind("reference", connectorReference)
                .bind("id", refundId)
                .then();
    }

    public Mono<Refund> find(String merchantId, String refundId) {
        return db.sql("select " + READ + " from refunds where id = :id and merchant_id = :merchant")
                .bind("id", refundId)
                .bind("merchant", merchantId)
                .map(RefundStore::refund)
                .one();
    }

    public Mono<Refund> findAnyMerchant(String refundId) {
        return db.sql("select " + READ + " from refunds where id = :id")
                .bind("id", refundId)
                .map(RefundStore::refund)
                .one();
    }

    /** The refund of {@code connector} whose id there is {@code reference}. */
    public Mono<Refund> findByConnectorReference(String connector, String reference) {
        return db.sql("select " + READ + " from refunds where connector = :connector and connector_reference = :ref")
                .bind("connector", connector)
                .bind("ref", reference)
                .map(RefundStore::refund)
                .one();
    }

    /**
     * PENDING refunds unchanged for longer than {@code seconds} (database clock) and not leased as
     * {@code claimKind} in `work_claims`, oldest first: refunds looked at less often (backoff) leave the batch to
     * the others.
     */
    public Flux<Refund> pendingOlderThan(double seconds, String claimKind, int limit) {
        return db.sql("select " + READ + " from refunds r where status = " + PENDING
                        + " and changed_at < now() - make_interval(secs => :seconds)"
                        + " and not exists (select 1 from work_claims c where c.kind = :kind and c.item_id = r.id"
                        + " and c.claimed_until > now())"
                        + " order by changed_at limit :limit")
                .bind("seconds", seconds)
                .bind("kind", claimKind)
                .bind("limit", limit)
                .map(RefundStore::refund)
                .all();
    }

    /** One page of a payment's refunds, newest first; `startingAfter` must be one of them ({@link UnknownCursor}). */
    public Mono<Page<Refund>> list(String merchantId, String paymentId, PageRequest page) {
        Mono<Optional<Map.Entry<Instant, String>>> cursor = page.startingAfter() == null
                ? Mono.just(Optional.empty())
                : db.sql("select created_at, id from refunds where id = :id and payment_id = :payment"
                                + " and merchant_id = :merchant")
                        .bind("id", page.startingAfter())
                        .bind("payment", paymentId)
                        .bind("merchant", merchantId)
                        .map(row -> Optional.of(Map.entry(row.get("created_at", Instant.class),
                                row.get("id", String.class))))
                        .one()
                        .switchIfEmpty(Mono.error(() -> new UnknownCursor(page.startingAfter())));
        return cursor.flatMap(after -> {
            StringBuilder sql = new StringBuilder("select " + READ
                    + " from refunds where payment_id = :payment and merchant_id = :merchant");
            Map<String, Parameter> values = new HashMap<>();
            values.put("payment", Parameter.from(paymentId));
            values.put("merchant", Parameter.from(merchantId));
            after.ifPresent(keyset -> {
                sql.append(" and (created_at, id) < (:afterAt, :afterId)");
                values.put("afterAt", Parameter.from(keyset.getKey()));
                values.put("afterId", Parameter.from(keyset.getValue()));
            });
            sql.append(" order by created_at desc, id desc limit :limit");
            values.put("limit", Parameter.from(page.limit() + 1));
            return db.sql(sql.toString()).bindValues(values)
                    .map(RefundStore::refund)
                    .all()
                    .collectList()
                    .map(rows -> Page.of(rows, page.limit()));
        });
    }

    private static Refund refund(Readable row) {
        return new Refund(row.get("id", String.class), row.get("merchant_id", String.class),
                row.get("payment_id", String.class), row.get("attempt", Integer.class), row.get("amount", Long.class),
                row.get("currency", String.class), RefundStatus.valueOf(row.get("status", String.class)),
                row.get("reason", String.class), row.get("failure_reason", String.class),
                row.get("connector", String.class), row.get("charge_reference", String.class),
                row.get("connector_reference", String.class),
                Boolean.TRUE.equals(row.get("counts_against_payment", Boolean.class)), row.get("version", Long.class),
                row.get("created_at", Instant.class), row.get("updated_at", Instant.class),
                row.get("sends_in_doubt", Integer.class), row.get("attention_reason", String.class));
    }
}
