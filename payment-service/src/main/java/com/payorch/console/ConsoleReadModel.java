package com.payorch.console;

import com.payorch.console.PaymentDossier.AttemptLine;
import com.payorch.console.PaymentDossier.BookingLine;
import com.payorch.console.PaymentDossier.DeliveryLine;
import com.payorch.console.PaymentDossier.DisputeEventLine;
import com.payorch.console.PaymentDossier.DisputeLine;
import com.payorch.console.PaymentDossier.EmailLine;
import com.payorch.console.PaymentDossier.EventLine;
import com.payorch.console.PaymentDossier.ReceiptLine;
import com.payorch.console.PaymentDossier.RefundLine;
import com.payorch.payments.Hold;
import com.payorch.payments.PaymentQueries;
import com.payorch.payments.PaymentTransition;
import com.payorch.payments.PaymentWithHistory;
import com.payorch.statemachine.DisputeStatus;
import com.payorch.statemachine.PaymentStatus;
import com.payorch.support.Page;
import com.payorch.support.SqlLiterals;
import io.r2dbc.spi.Readable;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.r2dbc.core.Parameter;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The console's reads over the other features' tables (payments, attempts, transitions, webhook receipts, events,
 * merchant webhook deliveries, refunds, disputes, bookings, e-mails): read only, each narrowed by the user's
 * {@link MerchantScope}. Kept here rather than in the features' stores because only the console needs these
 * cross-merchant, cross-feature views.
 */
@Component
public class ConsoleReadModel {

    private final DatabaseClient db;
    private final PaymentQueries payments;

    public ConsoleReadModel(DatabaseClient db, PaymentQueries payments) {
        this.db = db;
        this.payments = payments;
    }

    /**
     * One page of payments newest first (created_at, then id), walked by keyset: {@code startingAfter} is the last
     * id of the previous page; an id outside the scope or the filters starts from the top.
     */
    public Mono<Page<PaymentRow>> list(MerchantScope scope, PaymentSearch search, @Nullable String startingAfter,
                                       int limit) {
        StringBuilder where = new StringBuilder(scope.condition("p.merchant_id"));
        Map<String, Parameter> values = new HashMap<>();
        scopeValue(scope, values);
        add(where, values, "p.merchant_id = :merchant", "merchant", search.merchant());
        add(where, values, "p.status = :status", "status", search.status());
        add(where, values, "p.booking_id = :booking", "booking", search.bookingId());
        add(where, values, "p.connector = :connector", "connector", search.connector());
        add(where, values, "(p.id = :query or p.booking_id = :query)", "query", search.query());
        add(where, values, "p.created_at > :createdAfter", "createdAfter", search.createdAfter());
        add(where, values, "p.created_at < :createdBefore", "createdBefore", search.createdBefore());
        String filtered = where.toString();
        Mono<String> keyset = startingAfter == null ? Mono.just(filtered)
                : db.sql("select 1 from payments p where p.id = :cursorId and " + filtered)
                        .bindValues(values).bind("cursorId", startingAfter)
                        .map(row -> filtered + " and (p.created_at, p.id) < ((select created_at from payments"
                                + " where id = :cursorId), :cursorId)")
                        .one().defaultIfEmpty(filtered);
        return keyset.flatMap(sql -> {
            Map<String, Parameter> bound = new HashMap<>(values);
            if (sql.contains(":cursorId")) {
                bound.put("cursorId", Parameter.from(startingAfter));
            }
            bound.put("limit", Parameter.from(limit + 1));
            return db.sql("select p.id, p.merchant_id, p.booking_id, p.amount, p.currency, p.status, p.connector,"
                            + " p.amount_refunded, p.failure_reason, p.created_at,"
                            + " case when p.status = " + SqlLiterals.of(PaymentStatus.REQUIRES_ACTION)
                            + " then floor(extract(epoch from now() - p.action_required_at))::bigint"
                            + " end as awaiting_customer_seconds from payments p where " + sql
                            + " order by p.created_at desc, p.id desc limit :limit")
                    .bindValues(bound)
                    .map(ConsoleReadModel::paymentRow)
                    .all().collectList()
                    .map(rows -> Page.of(rows, limit));
        });
    }

    /** The merchant of a payment the user may see; empty for an unknown id or another merchant's payment. */
    public Mono<String> merchantOf(MerchantScope scope, String paymentId) {
        Map<String, Parameter> values = new HashMap<>();
        scopeValue(scope, values);
        return db.sql("select merchant_id from payments where id = :id and " + scope.condition("merchant_id"))
                .bindValues(values).bind("id", paymentId)
                .map(row -> row.get("merchant_id", String.class))
                .one();
    }

    /** The merchant of an event the user may see. */
    public Mono<String> merchantOfEvent(MerchantScope scope, String eventId) {
        Map<String, Parameter> values = new HashMap<>();
        scopeValue(scope, values);
        return db.sql("select merchant_id from events where id = :id and " + scope.condition("merchant_id"))
                .bindValues(values).bind("id", eventId)
                .map(row -> row.get("merchant_id", String.class))
                .one();
    }

    /** Everything about one payment the user may see, or empty (the page answers 404 then). */
    public Mono<PaymentDossier> dossier(MerchantScope scope, String paymentId) {
        return merchantOf(scope, paymentId)
                .flatMap(merchantId -> payments.findWithHistory(merchantId, paymentId))
                .flatMap(payment -> Mono.zip(booking(payment), attempts(paymentId), receipts(paymentId),
                                events(paymentId), deliveries(paymentId), refunds(paymentId), emails(paymentId),
                                disputes(paymentId))
                        .map(all -> {
                            List<AttemptLine> attempts = all.getT2();
                            List<ReceiptLine> receipts = all.getT3();
                            List<EventLine> events = all.getT4();
                            List<DeliveryLine> deliveries = all.getT5();
                            List<RefundLine> refunds = all.getT6();
                            List<EmailLine> emails = all.getT7();
                            List<DisputeLine> disputes = all.getT8();
                            return new PaymentDossier(payment, all.getT1().orElse(null), attempts, receipts, events,
                                    deliveries, refunds, emails, disputes, Timeline.of(payment, attempts, receipts,
                                    events, deliveries, refunds, emails, disputes));
                        }));
    }

    /**
     * A short mark that changes whenever anything on the payment page would: the live stream sends an update when
     * it differs from the last one. Empty when the payment is not the user's.
     */
    public Mono<String> changeMark(MerchantScope scope, String paymentId) {
        Map<String, Parameter> values = new HashMap<>();
        scopeValue(scope, values);
        return db.sql("""
                        select p.version || '/' || p.amount_refunded
                          || '/' || (select count(*) || ':' || coalesce(sum(version), 0) from refunds
                                     where payment_id = p.id)
                          || '/' || (select count(*) || ':' || count(dispatched_at) || ':' || count(parked_at)
                                     from events where payment_id = p.id)
                          || '/' || (select count(*) + coalesce(sum(duplicates), 0) from webhook_receipts where payment_id = p.id)
                          || '/' || (select count(*) || ':' || count(*) filter (where d.status <> 'pending')
                                     from webhook_deliveries d join events e on e.id = d.event_id
                                     where e.payment_id = p.id)
                          || '/' || (select count(*) || ':' || coalesce(sum(version), 0) || ':'
                                            || coalesce(max(updated_at)::text, '') from disputes where payment_id = p.id)
                          || '/' || (select count(sent_at) from booking_confirmations where payment_id = p.id)
                          || '/' || (select count(sent_at) from booking_cancellation_emails where payment_id = p.id)
                          || '/' || coalesce((select b.status from bookings b
                                     where b.merchant_id = p.merchant_id and b.id = p.booking_id), '')
                          as mark
                        from payments p where p.id = :id and\s""" + scope.condition("p.merchant_id"))
                .bindValues(values).bind("id", paymentId)
                .map(row -> row.get("mark", String.class))
                .one();
    }

    private Mono<java.util.Optional<BookingLine>> booking(PaymentWithHistory payment) {
        return db.sql("select id, status, payment_id, activated_at, cancelled_at from bookings"
                        + " where merchant_id = :merchant and id = :booking")
                .bind("merchant", payment.payment().merchantId())
                .bind("booking", payment.payment().bookingId())
                .map(row -> new BookingLine(row.get("id", String.class), row.get("status", String.class),
                        row.get("payment_id", String.class), row.get("activated_at", Instant.class),
                        row.get("cancelled_at", Instant.class)))
                .one().map(java.util.Optional::of).defaultIfEmpty(java.util.Optional.empty());
    }

    private Mono<List<AttemptLine>> attempts(String paymentId) {
        return db.sql("select number, connector, reference, status, failure_reason, orphaned_at, created_at"
                        + " from payment_attempts where payment_id = :id order by number")
                .bind("id", paymentId)
                .map(row -> new AttemptLine(row.get("number", Integer.class), row.get("connector", String.class),
                        row.get("reference", String.class), row.get("status", String.class),
                        row.get("failure_reason", String.class), row.get("orphaned_at", Instant.class),
                        row.get("created_at", Instant.class)))
                .all().collectList();
    }

    private Mono<List<ReceiptLine>> receipts(String paymentId) {
        return db.sql("select webhook_id, gateway, type, outcome, detail, received_at, duplicates, last_duplicate_at"
                        + " from webhook_receipts"
                        + " where payment_id = :id order by received_at")
                .bind("id", paymentId)
                .map(row -> new ReceiptLine(row.get("webhook_id", String.class), row.get("gateway", String.class),
                        row.get("type", String.class), row.get("outcome", String.class),
                        row.get("detail", String.class), row.get("received_at", Instant.class),
                        row.get("duplicates", Integer.class), row.get("last_duplicate_at", Instant.class)))
                .all().collectList();
    }

    private Mono<List<EventLine>> events(String paymentId) {
        return db.sql("select id, type, created_at, dispatched_at, parked_at, attempts, last_error from events"
                        + " where payment_id = :id order by seq")
                .bind("id", paymentId)
                .map(row -> new EventLine(row.get("id", String.class), row.get("type", String.class),
                        row.get("created_at", Instant.class), row.get("dispatched_at", Instant.class),
                        row.get("parked_at", Instant.class), row.get("attempts", Integer.class),
                        row.get("last_error", String.class)))
                .all().collectList();
    }

    private Mono<List<DeliveryLine>> deliveries(String paymentId) {
        return db.sql("""
                        select d.id, d.event_id, e.type, d.attempt, d.status, d.response_status, d.error, d.at,
                               d.attempt = max(d.attempt) over (partition by d.event_id) as latest
                        from webhook_deliveries d join events e on e.id = d.event_id
                        where e.payment_id = :id order by d.at, d.attempt""")
                .bind("id", paymentId)
                .map(row -> new DeliveryLine(row.get("id", String.class), row.get("event_id", String.class),
                        row.get("type", String.class), row.get("attempt", Integer.class),
                        row.get("status", String.class), row.get("response_status", Integer.class),
                        row.get("error", String.class), row.get("at", Instant.class),
                        Boolean.TRUE.equals(row.get("latest", Boolean.class))))
                .all().collectList();
    }

    private Mono<List<RefundLine>> refunds(String paymentId) {
        return db.sql("select id, amount, currency, status, reason, failure_reason, connector, connector_reference,"
                        + " counts_against_payment, created_at, updated_at from refunds where payment_id = :id"
                        + " order by created_at desc, id desc")
                .bind("id", paymentId)
                .map(row -> new RefundLine(row.get("id", String.class), row.get("amount", Long.class),
                        row.get("currency", String.class), row.get("status", String.class),
                        row.get("reason", String.class), row.get("failure_reason", String.class),
                        row.get("connector", String.class), row.get("connector_reference", String.class),
                        Boolean.TRUE.equals(row.get("counts_against_payment", Boolean.class)),
                        row.get("created_at", Instant.class), row.get("updated_at", Instant.class)))
                .all().collectList();
    }

    /**
     * The payment's disputes, oldest first, each with its events: an event's data is the dispute resource, so its
     * {@code id} ties the event to the dispute.
     */
    private Mono<List<DisputeLine>> disputes(String paymentId) {
        Mono<Map<String, List<DisputeEventLine>>> events = db.sql("""
                        select id, type, created_at, data ->> 'id' as dispute_id from events
                        where payment_id = :id and type like 'dispute.%' order by seq
                        """)
                .bind("id", paymentId)
                .map(row -> Map.entry(String.valueOf(row.get("dispute_id", String.class)),
                        new DisputeEventLine(row.get("id", String.class), row.get("type", String.class),
                                row.get("created_at", Instant.class))))
                .all()
                .collect(HashMap<String, List<DisputeEventLine>>::new,
                        (byDispute, e) -> byDispute.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(e.getValue()))
                .map(byDispute -> (Map<String, List<DisputeEventLine>>) byDispute);
        return events.flatMap(byDispute -> db.sql("""
                        select id, amount, currency, status, reason, evidence_due_by, connector, connector_reference,
                               created_at, updated_at, coalesce(status = %s and evidence_due_by < now(), false)
                               as evidence_overdue
                        from disputes where payment_id = :id order by created_at, id
                        """.formatted(SqlLiterals.of(DisputeStatus.OPEN)))
                .bind("id", paymentId)
                .map(row -> {
                    String id = row.get("id", String.class);
                    return new DisputeLine(id, row.get("amount", Long.class), row.get("currency", String.class),
                            row.get("status", String.class), row.get("reason", String.class),
                            row.get("evidence_due_by", Instant.class),
                            Boolean.TRUE.equals(row.get("evidence_overdue", Boolean.class)),
                            row.get("connector", String.class),
                            row.get("connector_reference", String.class), row.get("created_at", Instant.class),
                            row.get("updated_at", Instant.class), List.copyOf(byDispute.getOrDefault(id, List.of())));
                })
                .all().collectList());
    }

    private Mono<List<EmailLine>> emails(String paymentId) {
        return db.sql("""
                        select 'confirmation' as kind, recipient, message_id, sent_at from booking_confirmations
                        where payment_id = :id
                        union all
                        select 'cancellation', recipient, message_id, sent_at from booking_cancellation_emails
                        where payment_id = :id""")
                .bind("id", paymentId)
                .map(row -> new EmailLine(row.get("kind", String.class), row.get("recipient", String.class),
                        row.get("message_id", String.class), row.get("sent_at", Instant.class)))
                .all().collectList();
    }

    static void scopeValue(MerchantScope scope, Map<String, Parameter> values) {
        if (!scope.all()) {
            values.put("scopeMerchants", Parameter.from(scope.asArray()));
        }
    }

    private static void add(StringBuilder where, Map<String, Parameter> values, String condition, String name,
                            @Nullable Object value) {
        if (value != null) {
            where.append(" and ").append(condition);
            values.put(name, Parameter.from(value));
        }
    }

    static PaymentRow paymentRow(Readable row) {
        return new PaymentRow(row.get("id", String.class), row.get("merchant_id", String.class),
                row.get("booking_id", String.class), row.get("amount", Long.class), row.get("currency", String.class),
                row.get("status", String.class), row.get("connector", String.class),
                row.get("amount_refunded", Long.class), row.get("failure_reason", String.class),
                row.get("created_at", Instant.class), row.get("awaiting_customer_seconds", Long.class));
    }

    /** Merges every kind of record of a payment into one list, oldest first. */
    static final class Timeline {

        private Timeline() {
        }

        static List<TimelineEntry> of(PaymentWithHistory payment, List<AttemptLine> attempts,
                                      List<ReceiptLine> receipts, List<EventLine> events,
                                      List<DeliveryLine> deliveries, List<RefundLine> refunds,
                                      List<EmailLine> emails, List<DisputeLine> disputes) {
            List<TimelineEntry> entries = new ArrayList<>();
            Hold hold = payment.payment().hold();
            if (hold.cancelRequestedAt() != null) {
                entries.add(new TimelineEntry(hold.cancelRequestedAt(), "cancel", "cancel requested: the hold is to"
                        + " be released, no capture may follow", hold.cancelReason(), null));
            }
            for (PaymentTransition t : payment.history()) {
                entries.add(new TimelineEntry(t.at(), "transition",
                        (t.from() == null ? "created" : t.from().name()) + " → " + t.to().name() + " (" + t.event() + ")",
                        "by " + t.source().value() + (t.sourceId() == null ? ""
                                : t.source().value().equals("webhook") ? ", webhook id" : ", idempotency key"),
                        t.sourceId()));
            }
            for (AttemptLine a : attempts) {
                entries.add(new TimelineEntry(a.createdAt(), "attempt", "attempt " + a.number() + " on "
                        + a.connector() + ": " + a.status(), a.failureReason(), a.reference()));
                if (a.orphanedAt() != null) {
                    entries.add(new TimelineEntry(a.orphanedAt(), "attempt", "attempt " + a.number()
                            + " orphaned charge", "superseded attempt took the money", a.reference()));
                }
            }
            for (ReceiptLine r : receipts) {
                entries.add(new TimelineEntry(r.receivedAt(), "webhook", r.gateway() + " webhook " + r.type() + ": "
                        + r.outcome(), r.detail(), r.webhookId()));
                if (r.duplicates() > 0 && r.lastDuplicateAt() != null) {
                    entries.add(new TimelineEntry(r.lastDuplicateAt(), "webhook", r.gateway() + " webhook " + r.type()
                            + ": duplicate × " + r.duplicates(), "redelivered, not applied again (latest shown)",
                            r.webhookId()));
                }
            }
            for (EventLine e : events) {
                entries.add(new TimelineEntry(e.createdAt(), "event", "event " + e.type() + " (" + e.state() + ")",
                        e.lastError(), e.id()));
            }
            for (DeliveryLine d : deliveries) {
                entries.add(new TimelineEntry(d.at(), "delivery", "merchant webhook " + d.eventType() + " attempt "
                        + d.attempt() + ": " + d.status()
                        + (d.responseStatus() == null ? "" : " (HTTP " + d.responseStatus() + ")"), d.error(),
                        d.eventId()));
            }
            for (RefundLine r : refunds) {
                entries.add(new TimelineEntry(r.createdAt(), "refund", "refund of " + r.amount() + " " + r.currency()
                        + " requested" + (r.countsAgainstPayment() ? "" : " (orphaned charge)"), r.reason(), r.id()));
                if (!r.status().equals("PENDING")) {
                    entries.add(new TimelineEntry(r.updatedAt(), "refund", "refund " + r.status(), r.failureReason(),
                            r.id()));
                }
            }
            for (DisputeLine d : disputes) {
                for (DisputeEventLine e : d.events()) {
                    String what = e.type().substring("dispute.".length());
                    entries.add(new TimelineEntry(e.at(), "dispute", "dispute of " + d.amount() + " " + d.currency()
                            + " " + what + " at " + d.connector(), what.equals("opened") ? d.reason() : null, d.id()));
                }
            }
            for (EmailLine m : emails) {
                if (m.sentAt() != null) {
                    entries.add(new TimelineEntry(m.sentAt(), "email", m.kind() + " e-mail sent to " + m.recipient(),
                            null, m.messageId()));
                }
            }
            entries.sort(Comparator.comparing(TimelineEntry::at));
            return entries;
        }
    }

    Flux<Map<String, Object>> rows(String sql, MerchantScope scope, Map<String, Object> binds) {
        Map<String, Parameter> values = new HashMap<>();
        scopeValue(scope, values);
        binds.forEach((k, v) -> values.put(k, Parameter.from(v)));
        return db.sql(sql).bindValues(values).fetch().all();
    }
}
