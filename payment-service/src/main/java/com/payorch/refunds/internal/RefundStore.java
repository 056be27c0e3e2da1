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
 * SQL for refunds. The invariant "a payment's PENDING and SUCCEEDED refunds never exceed its amount" is kept by the
 * database, in the statement that inserts a refund: it locks the payment row (`FOR UPDATE`, which under READ
 * COMMITTED waits for a concurrent writer and then sees its committed row), raises `amount_reserved` with a
 * conditional UPDATE (COMPLETED, and the new total within the amount) and inserts the refund only for the row that
 * UPDATE matched. Concurrent inserts on any instance queue on that lock, each deciding on the row the previous one
 * committed; nothing is read first and written later in Java. The CHECK `amount_reserved <= amount` (V11) backs it.
 */
@Component
public class RefundStore {

    private static final String PENDING = SqlLiterals.of(RefundStatus.PENDING);
    private static final String PAYMENT_COMPLETED = SqlLiterals.of(PaymentStatus.COMPLETED);
    private static final String BOOKING_ACTIVE = SqlLiterals.of(BookingStatus.ACTIVE);
    private static final String BOOKING_CANCELLED = SqlLiterals.of(BookingStatus.CANCELLED);

    private static final String COLUMNS = """
            id, merchant_id, payment_id, attempt, amount, currency, status, reason, failure_reason, connector,
            charge_reference, connector_reference, counts_against_payment, version, created_at, updated_at""";

    private final DatabaseClient db;
    private final EventStore events;

    public RefundStore(DatabaseClient db, EventStore events) {
        this.db = db;
        this.events = events;
    }

    /**
     * Inserts a PENDING refund of the payment's current (charged) attempt and its `refund.created` event, reserving
     * {@code amount} (null: all that is still refundable) of the payment, in one statement. Empty when the payment
     * is not COMPLETED or the amount does not fit: nothing was written then.
     */
    public Mono<Refund> insertReserving(String refundId, Payment payment, @Nullable Long amount, @Nullable String reason,
                                 Event created, Instant now) {
        SqlPart event = events.insertFrom("created_event", "refund_payment", created,
                "jsonb_build_object('amount', amount)");
        return db.sql("""
                        with target as (
                            select id, coalesce(:amount, amount - amount_reserved) as refunded
                            from payments
                            where id = :payment and merchant_id = :merchant and status = """ + PAYMENT_COMPLETED + """
                            for update),
                        reserved as (
                            update payments p
                            set amount_reserved = p.amount_reserved + t.refunded
                            from target t
                            where p.id = t.id and t.refunded >= 1 and p.amount_reserved + t.refunded <= p.amount
                            returning p.id, p.merchant_id, p.attempt, p.connector, p.currency, t.refunded),
                        refund as (
                            insert into refunds (""" + COLUMNS + """
                                )
                            select :id, r.merchant_id, r.id, r.attempt, r.refunded, r.currency, """ + PENDING + """
                            , :reason,
                                   null, r.connector, a.reference, null, true, 1, :now, :now
                            from reserved r
                            join payment_attempts a on a.payment_id = r.id and a.number = r.attempt
                            returning\s""" + COLUMNS + """
                            ),
                        refund_payment as (select payment_id as id, amount from refund),
                        """ + event.sql() + """
                        select\s""" + COLUMNS + " from refund")
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
                            on conflict (payment_id, attempt) where not counts_against_payment do nothing
                            returning\s""" + COLUMNS + """
                            ),
                        refund_payment as (select payment_id as id from refund),
                        """ + event.sql() + """
                        select\s""" + COLUMNS + " from refund")
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
                         @Nullable String connectorReference, Event settledEvent, Event cancelledEvent, Instant now) {
        boolean succeeded = to == RefundStatus.SUCCEEDED;
        SqlPart refundEvent = events.insertFrom("refund_event", "changed_payment", settledEvent, null);
        SqlPart cancelEvent = events.insertFrom("cancel_event", "cancelled_payment", cancelledEvent, null);
        return db.sql("""
                        with changed as (
                            update refunds
                            set status = :status, failure_reason = :failureReason,
                                connector_reference = coalesce(connector_reference, :reference),
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
                            returning p.id, p.merchant_id, p.booking_id, p.amount, p.amount_refunded),
                        cancelled as (
                            update bookings b
                            set status = """ + BOOKING_CANCELLED + """
                            , cancelled_at = :now, updated_at = :now, version = b.version + 1
                            from paid
                            where :succeeded and paid.amount_refunded = paid.amount
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
        return db.sql("select " + COLUMNS + " from refunds where id = :id and merchant_id = :merchant")
                .bind("id", refundId)
                .bind("merchant", merchantId)
                .map(RefundStore::refund)
                .one();
    }

    public Mono<Refund> findAnyMerchant(String refundId) {
        return db.sql("select " + COLUMNS + " from refunds where id = :id")
                .bind("id", refundId)
                .map(RefundStore::refund)
                .one();
    }

    /** The refund of {@code connector} whose id there is {@code reference}. */
    public Mono<Refund> findByConnectorReference(String connector, String reference) {
        return db.sql("select " + COLUMNS + " from refunds where connector = :connector and connector_reference = :ref")
                .bind("connector", connector)
                .bind("ref", reference)
                .map(RefundStore::refund)
                .one();
    }

    /** PENDING refunds unchanged for longer than {@code seconds} (database clock), oldest first. */
    public Flux<Refund> pendingOlderThan(double seconds, int limit) {
        return db.sql("select " + COLUMNS + " from refunds where status = " + PENDING
                        + " and changed_at < now() - make_interval(secs => :seconds) order by changed_at limit :limit")
                .bind("seconds", seconds)
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
            StringBuilder sql = new StringBuilder("select " + COLUMNS
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
                row.get("created_at", Instant.class), row.get("updated_at", Instant.class));
    }
}
