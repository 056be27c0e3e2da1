package com.payorch.payments;

import com.payorch.statemachine.PaymentEvent;
import com.payorch.statemachine.PaymentStatus;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import com.payorch.events.Event;
import com.payorch.events.EventStore;
import com.payorch.support.SqlPart;
import io.r2dbc.postgresql.codec.Json;
import io.r2dbc.spi.Readable;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import com.payorch.support.Page;
import com.payorch.support.PageRequest;
import com.payorch.support.UnknownCursor;
import org.jspecify.annotations.Nullable;
import org.springframework.dao.OptimisticLockingFailureException;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.r2dbc.core.Parameter;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * SQL for payments, their transitions and their attempts. Every read is scoped to a merchant unless its name says
 * otherwise. A change of a payment is written with its transition, its attempt and its outbox event in one statement
 * (data-modifying CTEs; the event part comes from {@link EventStore}): one round trip instead of four, which is most
 * of a create's cost.
 */
@Component
public class PaymentStore {

    /** The payment columns {@link #payment(Readable)} reads, for other packages' queries over payments. */
    public static final String COLUMNS = """
            id, merchant_id, booking_id, amount, currency, payment_method, customer_email, description, status,
            failure_reason, attempt, connector, version, created_at, updated_at, metadata""";

    // Data-modifying CTE parts: each inserts one row per row of the CTE named after "from".
    private static final String INSERT_TRANSITION_FROM = """
            insert into payment_transitions (payment_id, from_status, to_status, event, source, source_id, at)
            select id, :fromStatus, :toStatus, :transitionEvent, :source, :sourceId, :transitionAt from\s""";
    private static final String NEW_ATTEMPT = """
            attempt as (insert into payment_attempts (payment_id, number, connector, reference, status, failure_reason,
                created_at)
            select id, :attemptNumber, :attemptConnector, :attemptReference, :attemptStatus, :attemptFailureReason,
                :attemptCreatedAt from\s""";
    private static final String NEW_ATTEMPT_RETURNING =
            " returning number, connector, reference, status, failure_reason, created_at)";
    private static final String UPDATE_ATTEMPT = """
            attempt as (update payment_attempts a
            set status = :attemptStatus, reference = coalesce(a.reference, :attemptReference),
                failure_reason = :attemptFailureReason
            from changed where a.payment_id = changed.id and a.number = :attemptNumber
            returning a.number, a.connector, a.reference, a.status, a.failure_reason, a.created_at)""";
    private static final String HISTORY_JSON = """
            coalesce((select json_agg(json_build_object('from', t.from_status, 'to', t.to_status, 'event', t.event,
                'source', t.source, 'sourceId', t.source_id,
                'at', to_char(t.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')) order by t.id)
              from payment_transitions t where t.payment_id = p.id), '[]')::text""";
    private static final String ATTEMPTS_JSON = """
            coalesce((select json_agg(json_build_object('number', a.number, 'connector', a.connector,
                'reference', a.reference, 'status', a.status, 'failureReason', a.failure_reason,
                'createdAt', to_char(a.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')) order by a.number)
              from payment_attempts a where a.payment_id = p.id), '[]')::text""";

    /** Reads and writes the metadata column in {@link #payment(Readable)}, a static reader of rows. */
    private static final ObjectMapper METADATA_JSON = new ObjectMapper();

    private final DatabaseClient db;
    private final ObjectMapper objectMapper;
    private final EventStore events;

    public PaymentStore(DatabaseClient db, ObjectMapper objectMapper, EventStore events) {
        this.db = db;
        this.objectMapper = objectMapper;
        this.events = events;
    }

    public Mono<Payment> find(String merchantId, String paymentId) {
        return db.sql("select " + COLUMNS + ", amount_refunded from payments where id = :id and merchant_id = :merchant")
                .bind("id", paymentId)
                .bind("merchant", merchantId)
                .map(PaymentStore::payment)
                .one();
    }

    /** For callers that authenticate otherwise than by merchant, such as signed gateway webhooks. */
    public Mono<Payment> findAnyMerchant(String paymentId) {
        return db.sql("select " + COLUMNS + ", amount_refunded from payments where id = :id")
                .bind("id", paymentId)
                .map(PaymentStore::payment)
                .one();
    }

    /** The status of the booking's PENDING, PROCESSING or COMPLETED payment, if it has one. */
    public Mono<PaymentStatus> liveStatusOfBooking(String merchantId, String bookingId) {
        return db.sql("""
                        select status from payments
                        where merchant_id = :merchant and booking_id = :booking
                          and status in ('PENDING', 'PROCESSING', 'COMPLETED')
                        order by (status = 'COMPLETED') desc
                        limit 1""")
                .bind("merchant", merchantId)
                .bind("booking", bookingId)
                .map(row -> PaymentStatus.valueOf(row.get("status", String.class)))
                .one();
    }

    /**
     * Writes a new payment with its first transition, its first attempt and its outbox event, creating the
     * merchant's booking on its first payment: one statement, so one round trip. The booking guard's index may
     * refuse the payment.
     */
    Mono<Void> insertCreated(Payment payment, PaymentTransition transition, Attempt attempt, Event event) {
        return insertCreated(payment, transition, attempt, event, null).then();
    }

    /**
     * {@link #insertCreated(Payment, PaymentTransition, Attempt, Event)} that writes only for the row of a CTE part
     * written first in the same statement (the idempotency key's claim): true when it wrote, false when that CTE
     * yielded no row and nothing was written. Without a part ({@code null}) it always writes.
     */
    Mono<Boolean> insertCreated(Payment payment, PaymentTransition transition, Attempt attempt, Event event,
                                @Nullable SqlPart onlyFor) {
        SqlPart outbox = events.insertFrom("outbox", "payment", event);
        String guardCte = onlyFor == null ? null : onlyFor.sql().substring(0, onlyFor.sql().indexOf(' '));
        String bookingRow = "(:merchant, :booking, 'AWAITING_PAYMENT', 1, :createdAt, :createdAt)";
        String paymentRow = """
                (:id, :merchant, :booking, :amount, :currency, :method, :email, :description,
                    :status, :failureReason, :attempt, :connector, :version, :createdAt, :updatedAt,
                    :metadata)""";
        return db.sql("with " + (onlyFor == null ? "" : onlyFor.sql() + ",\n") + """
                        booking as (
                            insert into bookings (merchant_id, id, status, version, created_at, updated_at)
                            """ + rows(bookingRow, guardCte) + """
                            on conflict (merchant_id, id) do nothing),
                        payment as (
                            insert into payments (""" + COLUMNS + """
                            )
                            """ + rows(paymentRow, guardCte) + """
                            returning id),
                        transition as (""" + INSERT_TRANSITION_FROM + """
                            payment),
                        """ + NEW_ATTEMPT + "payment), " + outbox.sql() + """
                        select count(*) from payment""")
                .bind("id", payment.id())
                .bind("merchant", payment.merchantId())
                .bind("booking", payment.bookingId())
                .bind("amount", payment.amount())
                .bind("currency", payment.currency())
                .bind("method", payment.paymentMethod())
                .bind("email", nullable(payment.customerEmail()))
                .bind("description", nullable(payment.description()))
                .bind("status", payment.status().name())
                .bind("failureReason", nullable(payment.failureReason()))
                .bind("attempt", payment.attempt())
                .bind("connector", payment.connector())
                .bind("version", payment.version())
                .bind("createdAt", payment.createdAt())
                .bind("updatedAt", payment.updatedAt())
                .bind("metadata", Json.of(METADATA_JSON.writeValueAsString(new TreeMap<>(payment.metadata()))))
                .bindValues(transitionValues(transition))
                .bindValues(attemptValues(attempt, true))
                .bindValues(outbox.values())
                .bindValues(onlyFor == null ? Map.of() : onlyFor.values())
                .map(row -> row.get(0, Long.class))
                .one()
                .map(written -> written == 1);
    }

    /** `values row`, or the same row selected once for each row of the CTE {@code guardCte}. */
    private static String rows(String row, @Nullable String guardCte) {
        if (guardCte == null) {
            return "values " + row + "\n";
        }
        String inner = row.trim();
        return "select " + inner.substring(1, inner.length() - 1) + " from " + guardCte + "\n";
    }

    /**
     * Writes `changed` only if the row still has the version it was read at, with its transition, its attempt (a
     * new one on RETRY, else the current one updated) and (when there is one) its outbox event, in one statement.
     * A lost race is an error, never a silent overwrite.
     */
    Mono<Attempt> updateWithHistory(Payment changed, long expectedVersion, PaymentTransition transition,
                                    Attempt attempt, boolean newAttempt, Event event) {
        SqlPart outbox = event == null ? null : events.insertFrom("outbox", "changed", event);
        String attemptPart = newAttempt ? NEW_ATTEMPT + "changed" + NEW_ATTEMPT_RETURNING : UPDATE_ATTEMPT;
        return db.sql("""
                        with changed as (
                            update payments
                            set status = :status, failure_reason = :failureReason, attempt = :attempt,
                                version = :version, updated_at = :updatedAt, changed_at = now()
                            where id = :id and version = :expectedVersion
                            returning id),
                        transition as (""" + INSERT_TRANSITION_FROM + """
                            changed),
                        """ + attemptPart + (outbox == null ? "" : ", " + outbox.sql()) + """
                        select number, connector, reference, status, failure_reason, created_at from attempt""")
                .bind("status", changed.status().name())
                .bind("failureReason", nullable(changed.failureReason()))
                .bind("attempt", changed.attempt())
                .bind("version", changed.version())
                .bind("updatedAt", changed.updatedAt())
                .bind("id", changed.id())
                .bind("expectedVersion", expectedVersion)
                .bindValues(transitionValues(transition))
                .bindValues(attemptValues(attempt, newAttempt))
                .bindValues(outbox == null ? Map.of() : outbox.values())
                .map(PaymentStore::attempt)
                .one()
                .switchIfEmpty(Mono.error(() -> new OptimisticLockingFailureException(
                        "payment " + changed.id() + " is no longer at version " + expectedVersion)));
    }

    /** What {@link #updateCurrentAttemptWith} did. */
    enum GuardedWrite {
        /** The change and the caller's part were written together. */
        WRITTEN,
        /** The payment or its attempt is no longer as read: nothing was written (re-read and decide again). */
        STALE,
        /** The payment was as read, but the caller's part wrote nothing (say, its claim was lost): nothing written. */
        REFUSED_BY_PART
    }

    /**
     * Like {@link #updateWithHistory} for an update of the current attempt, together with a caller's data-modifying
     * part in one statement, all or nothing: the payment row is locked at {@code expectedVersion} with its current
     * attempt still without a reference (else nothing is written: {@link GuardedWrite#STALE}); the caller's part runs
     * once for that row (it must read the CTE {@code current}); the change is written only for the row the part
     * returned. One round trip where a transaction would take four (begin, change, part, commit).
     *
     * @param part a CTE, named by the first word of its SQL, that selects from {@code current}
     */
    Mono<GuardedWrite> updateCurrentAttemptWith(Payment changed, long expectedVersion, PaymentTransition transition,
                                                Attempt attempt, @Nullable Event event, SqlPart part) {
        SqlPart outbox = event == null ? null : events.insertFrom("outbox", "changed", event);
        String partCte = part.sql().substring(0, part.sql().indexOf(' '));
        return db.sql("""
                        with current as (
                            select p.id from payments p
                            join payment_attempts a on a.payment_id = p.id and a.number = :attemptNumber
                            where p.id = :id and p.version = :expectedVersion and a.reference is null
                            for update of p),
                        """ + part.sql() + """
                        ,
                        changed as (
                            update payments
                            set status = :status, failure_reason = :failureReason, attempt = :attempt,
                                version = :version, updated_at = :updatedAt, changed_at = now()
                            where id = :id and version = :expectedVersion and exists (select 1 from\s""" + partCte + """
                        )
                            returning id),
                        transition as (""" + INSERT_TRANSITION_FROM + """
                            changed),
                        """ + UPDATE_ATTEMPT + (outbox == null ? "" : ", " + outbox.sql()) + """
                        select (select count(*) from current) as found, (select count(*) from changed) as written""")
                .bind("status", changed.status().name())
                .bind("failureReason", nullable(changed.failureReason()))
                .bind("attempt", changed.attempt())
                .bind("version", changed.version())
                .bind("updatedAt", changed.updatedAt())
                .bind("id", changed.id())
                .bind("expectedVersion", expectedVersion)
                .bindValues(transitionValues(transition))
                .bindValues(attemptValues(attempt, false))
                .bindValues(outbox == null ? Map.of() : outbox.values())
                .bindValues(part.values())
                .map(row -> row.get("found", Long.class) == 0 ? GuardedWrite.STALE
                        : row.get("written", Long.class) == 1 ? GuardedWrite.WRITTEN : GuardedWrite.REFUSED_BY_PART)
                .one();
    }

    /** The attempt of {@code connector} whose charge is {@code reference}: (payment id, attempt number). */
    public Mono<Map.Entry<String, Integer>> findAttemptByReference(String connector, String reference) {
        return db.sql("select payment_id, number from payment_attempts where connector = :connector"
                        + " and reference = :reference")
                .bind("connector", connector)
                .bind("reference", reference)
                .map(row -> Map.entry(row.get("payment_id", String.class), row.get("number", Integer.class)))
                .one();
    }

    /** Attempt numbers of a payment whose connector reference is not known yet, first first. */
    public Flux<Integer> attemptsWithoutReference(String paymentId, String connector) {
        return db.sql("select number from payment_attempts where payment_id = :payment and connector = :connector"
                        + " and reference is null order by number")
                .bind("payment", paymentId)
                .bind("connector", connector)
                .map(row -> row.get("number", Integer.class))
                .all();
    }

    /** Records the connector's reference of an attempt, if none is recorded yet. */
    public Mono<Void> recordReference(String paymentId, int attempt, String reference) {
        return db.sql("update payment_attempts set reference = :reference where payment_id = :payment"
                        + " and number = :attempt and reference is null")
                .bind("reference", reference)
                .bind("payment", paymentId)
                .bind("attempt", attempt)
                .then();
    }

    /**
     * Before a submission that may fail over: counts it as in doubt at {@code connector}. False when the attempt is no
     * longer PENDING at that connector (it moved on, or an outcome came): the caller must not send.
     */
    Mono<Boolean> beginSend(String paymentId, int attempt, String connector) {
        return db.sql("""
                        update payment_attempts set sends_in_doubt = sends_in_doubt + 1
                        where payment_id = :payment and number = :attempt and connector = :connector
                          and status = 'PENDING'""")
                .bind("payment", paymentId)
                .bind("attempt", attempt)
                .bind("connector", connector)
                .fetch()
                .rowsUpdated()
                .map(rows -> rows == 1);
    }

    /** The submission ended with a definite "not charged": no longer in doubt. Answers the doubts left. */
    Mono<Integer> endSendNotCharged(String paymentId, int attempt, String connector) {
        return db.sql("""
                        update payment_attempts set sends_in_doubt = greatest(sends_in_doubt - 1, 0)
                        where payment_id = :payment and number = :attempt and connector = :connector
                        returning sends_in_doubt""")
                .bind("payment", paymentId)
                .bind("attempt", attempt)
                .bind("connector", connector)
                .map(row -> row.get("sends_in_doubt", Integer.class))
                .one()
                .defaultIfEmpty(-1);
    }

    /**
     * Moves a PENDING attempt from {@code from} to {@code to} (the payment's and the attempt's connector, one
     * statement), only while no submission to {@code from} is in doubt. True when it moved. Not a state change: the
     * payment's status, version and history stay as they are.
     */
    Mono<Boolean> moveToConnector(String paymentId, int attempt, String from, String to) {
        return db.sql("""
                        with moved as (
                            update payment_attempts set connector = :to, sends_in_doubt = 0
                            where payment_id = :payment and number = :attempt and connector = :from
                              and status = 'PENDING' and sends_in_doubt = 0 and reference is null
                            returning payment_id)
                        update payments set connector = :to
                        where id in (select payment_id from moved) and attempt = :attempt and connector = :from
                          and status = 'PENDING'""")
                .bind("payment", paymentId)
                .bind("attempt", attempt)
                .bind("from", from)
                .bind("to", to)
                .fetch()
                .rowsUpdated()
                .map(rows -> rows == 1);
    }

    /**
     * Marks a superseded attempt as having taken the money, once: true only for the call that marked it, so the
     * caller writes one {@code charge.orphaned} event however often the outcome is reported.
     */
    Mono<Boolean> markOrphaned(String paymentId, int attempt, String reference) {
        return db.sql("""
                        update payment_attempts
                        set status = 'SUCCEEDED', reference = coalesce(reference, :reference), orphaned_at = now()
                        where payment_id = :payment and number = :attempt and orphaned_at is null""")
                .bind("reference", reference)
                .bind("payment", paymentId)
                .bind("attempt", attempt)
                .fetch()
                .rowsUpdated()
                .map(rows -> rows == 1);
    }

    /** A payment with its history and attempts, in one query. */
    public Mono<PaymentWithHistory> findWithHistory(String merchantId, String paymentId) {
        return db.sql("select " + COLUMNS + ", amount_refunded, " + HISTORY_JSON + " as history, " + ATTEMPTS_JSON + " as attempts"
                        + " from payments p where id = :id and merchant_id = :merchant")
                .bind("id", paymentId)
                .bind("merchant", merchantId)
                .map(this::withHistory)
                .one();
    }

    /**
     * One page of the merchant's payments, newest first (created_at, then id), each with its history and attempts.
     * `startingAfter` must be one of the merchant's payments that the booking and creation-time filters admit (a
     * payment's status changes, so the status filter does not apply to the cursor); otherwise {@link UnknownCursor}.
     */
    public Mono<Page<PaymentWithHistory>> list(String merchantId, PaymentFilter filter, PageRequest page) {
        Mono<Optional<Cursor>> cursor = page.startingAfter() == null ? Mono.just(Optional.empty())
                : cursor(merchantId, filter, page.startingAfter()).map(Optional::of)
                        .switchIfEmpty(Mono.error(() -> new UnknownCursor(page.startingAfter())));
        return cursor.flatMap(after -> {
            SqlPart query = listQuery(merchantId, filter, after.orElse(null), page.limit());
            return db.sql(query.sql()).bindValues(query.values())
                    .map(this::withHistory)
                    .all()
                    .collectList()
                    .map(rows -> Page.of(rows, page.limit()));
        });
    }

    /** Where a page starts: the keyset of the payment named by `starting_after`. */
    public record Cursor(Instant createdAt, String id) {
    }

    private Mono<Cursor> cursor(String merchantId, PaymentFilter filter, String paymentId) {
        SqlPart where = where(merchantId, new PaymentFilter(filter.bookingId(), null, filter.createdAfter(),
                filter.createdBefore()), null);
        return db.sql("select created_at, id from payments p where id = :cursorId and " + where.sql())
                .bindValues(where.values())
                .bind("cursorId", paymentId)
                .map(row -> new Cursor(row.get("created_at", Instant.class), row.get("id", String.class)))
                .one();
    }

    /**
     * The SQL of one page (public for the test that checks its plan): only the filters given are in the WHERE
     * clause, so the planner picks the index of that combination ({@code payments_list*}, see V8) and reads it
     * backwards from the cursor.
     */
    public SqlPart listQuery(String merchantId, PaymentFilter filter, @Nullable Cursor after, int limit) {
        SqlPart where = where(merchantId, filter, after);
        Map<String, Parameter> values = new HashMap<>(where.values());
        values.put("limit", Parameter.from(limit + 1));
        return new SqlPart("select " + COLUMNS + ", amount_refunded, " + HISTORY_JSON + " as history, " + ATTEMPTS_JSON
                + " as attempts from payments p where " + where.sql()
                + " order by p.created_at desc, p.id desc limit :limit", values);
    }

    private static SqlPart where(String merchantId, PaymentFilter filter, @Nullable Cursor after) {
        StringBuilder sql = new StringBuilder("p.merchant_id = :merchant");
        Map<String, Parameter> values = new HashMap<>();
        values.put("merchant", Parameter.from(merchantId));
        if (filter.bookingId() != null) {
            sql.append(" and p.booking_id = :booking");
            values.put("booking", Parameter.from(filter.bookingId()));
        }
        if (filter.status() != null) {
            sql.append(" and p.status = :status");
            values.put("status", Parameter.from(filter.status().name()));
        }
        if (filter.createdAfter() != null) {
            sql.append(" and p.created_at > :createdAfter");
            values.put("createdAfter", Parameter.from(filter.createdAfter()));
        }
        if (filter.createdBefore() != null) {
            sql.append(" and p.created_at < :createdBefore");
            values.put("createdBefore", Parameter.from(filter.createdBefore()));
        }
        if (after != null) {
            sql.append(" and (p.created_at, p.id) < (:afterCreatedAt, :afterId)");
            values.put("afterCreatedAt", Parameter.from(after.createdAt()));
            values.put("afterId", Parameter.from(after.id()));
        }
        return new SqlPart(sql.toString(), values);
    }

    private PaymentWithHistory withHistory(Readable row) {
        return new PaymentWithHistory(payment(row), history(row.get("history", String.class)),
                attempts(row.get("attempts", String.class)));
    }

    private static Map<String, Parameter> transitionValues(PaymentTransition transition) {
        Map<String, Parameter> values = new HashMap<>();
        values.put("fromStatus", nullable(transition.from() == null ? null : transition.from().name()));
        values.put("toStatus", Parameter.from(transition.to().name()));
        values.put("transitionEvent", Parameter.from(transition.event().name()));
        values.put("source", Parameter.from(transition.source().value()));
        values.put("sourceId", nullable(transition.sourceId()));
        values.put("transitionAt", Parameter.from(transition.at()));
        return values;
    }

    private static Map<String, Parameter> attemptValues(Attempt attempt, boolean inserted) {
        Map<String, Parameter> values = new HashMap<>();
        values.put("attemptNumber", Parameter.from(attempt.number()));
        values.put("attemptReference", nullable(attempt.reference()));
        values.put("attemptStatus", Parameter.from(attempt.status().name()));
        values.put("attemptFailureReason", nullable(attempt.failureReason()));
        if (inserted) {
            values.put("attemptConnector", Parameter.from(attempt.connector()));
            values.put("attemptCreatedAt", Parameter.from(attempt.createdAt()));
        }
        return values;
    }

    private List<Attempt> attempts(String json) {
        List<Attempt> attempts = new ArrayList<>();
        for (JsonNode entry : objectMapper.readTree(json)) {
            attempts.add(new Attempt(entry.path("number").intValue(), entry.path("connector").textValue(),
                    entry.path("reference").textValue(), AttemptStatus.valueOf(entry.path("status").textValue()),
                    entry.path("failureReason").textValue(), Instant.parse(entry.path("createdAt").textValue())));
        }
        return attempts;
    }

    private List<PaymentTransition> history(String json) {
        try {
            List<PaymentTransition> history = new ArrayList<>();
            for (JsonNode entry : objectMapper.readTree(json)) {
                String from = entry.path("from").textValue();
                history.add(new PaymentTransition(from == null ? null : PaymentStatus.valueOf(from),
                        PaymentStatus.valueOf(entry.path("to").textValue()),
                        PaymentEvent.valueOf(entry.path("event").textValue()),
                        TransitionSource.fromValue(entry.path("source").textValue()),
                        entry.path("sourceId").textValue(),
                        Instant.parse(entry.path("at").textValue())));
            }
            return history;
        } catch (JacksonException e) {
            throw new IllegalStateException("a payment's history could not be read", e);
        }
    }

    private static Attempt attempt(Readable row) {
        return new Attempt(row.get("number", Integer.class), row.get("connector", String.class),
                row.get("reference", String.class), AttemptStatus.valueOf(row.get("status", String.class)),
                row.get("failure_reason", String.class), row.get("created_at", Instant.class));
    }

    /** Reads the {@link #COLUMNS} of a row. */
    public static Payment payment(Readable row) {
        return new Payment(row.get("id", String.class), row.get("merchant_id", String.class),
                row.get("booking_id", String.class), row.get("amount", Long.class), row.get("currency", String.class),
                row.get("payment_method", String.class), row.get("customer_email", String.class),
                row.get("description", String.class), PaymentStatus.valueOf(row.get("status", String.class)),
                row.get("failure_reason", String.class), row.get("attempt", Integer.class),
                row.get("connector", String.class), row.get("version", Long.class),
                row.get("created_at", Instant.class), row.get("updated_at", Instant.class),
                metadata(row.get("metadata", Json.class)), amountRefunded(row));
    }

    /** `amount_refunded` when the query selected it (those that show the payment do), else 0. */
    private static long amountRefunded(Readable row) {
        if (row instanceof io.r2dbc.spi.Row full && full.getMetadata().contains("amount_refunded")) {
            Long refunded = row.get("amount_refunded", Long.class);
            return refunded == null ? 0 : refunded;
        }
        return 0;
    }

    private static Map<String, String> metadata(Json json) {
        Map<String, String> metadata = new TreeMap<>();
        if (json != null) {
            METADATA_JSON.readTree(json.asString()).properties()
                    .forEach(member -> metadata.put(member.getKey(), member.getValue().asString()));
        }
        return metadata;
    }

    private static Parameter nullable(String value) {
        return Parameter.fromOrEmpty(value, String.class);
    }
}
