package com.payorch.payments.internal;

import com.payorch.events.Event;
import com.payorch.events.EventStore;
import com.payorch.payments.Attempt;
import com.payorch.payments.Hold;
import com.payorch.payments.AttemptStatus;
import com.payorch.payments.CustomerAction;
import com.payorch.payments.Payment;
import com.payorch.payments.PaymentRows;
import com.payorch.payments.PaymentTransition;
import com.payorch.statemachine.BookingStatus;
import com.payorch.statemachine.PaymentStatus;
import com.payorch.support.SqlLiterals;
import com.payorch.support.SqlPart;
import io.r2dbc.spi.Readable;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.dao.OptimisticLockingFailureException;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.r2dbc.core.Parameter;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * SQL for payments and their transitions: reads of one payment, and every change of a payment, written with its
 * transition, its attempt and its outbox event in one statement (data-modifying CTEs; the event part comes from
 * {@link EventStore}): one round trip instead of four, which is most of a create's cost. Every read is scoped to a
 * merchant unless its name says otherwise.
 */
@Component
public class PaymentStore {

    private static final String LIVE = SqlLiterals.in(PaymentStatus.LIVE);
    private static final String COMPLETED = SqlLiterals.of(PaymentStatus.COMPLETED);
    private static final String AWAITING_PAYMENT = SqlLiterals.of(BookingStatus.AWAITING_PAYMENT);

    private static final String COLUMNS = PaymentRows.COLUMNS;

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
                failure_reason = :attemptFailureReason, attention_reason = null, attention_since = null
            from changed where a.payment_id = changed.id and a.number = :attemptNumber
            returning a.number, a.connector, a.reference, a.status, a.failure_reason, a.created_at)""";

    private final DatabaseClient db;
    private final EventStore events;

    public PaymentStore(DatabaseClient db, EventStore events) {
        this.db = db;
        this.events = events;
    }

    public Mono<Payment> find(String merchantId, String paymentId) {
        return db.sql("select " + COLUMNS + ", amount_refunded, amount_disputed from payments"
                        + " where id = :id and merchant_id = :merchant")
                .bind("id", paymentId)
                .bind("merchant", merchantId)
                .map(PaymentRows::payment)
                .one();
    }

    /** For callers that authenticate otherwise than by merchant, such as signed gateway webhooks. */
    public Mono<Payment> findAnyMerchant(String paymentId) {
        return db.sql("select " + COLUMNS + ", amount_refunded, amount_disputed from payments where id = :id")
                .bind("id", paymentId)
                .map(PaymentRows::payment)
                .one();
    }

    /** The status of the booking's PENDING, PROCESSING or COMPLETED payment, if it has one. */
    public Mono<PaymentStatus> liveStatusOfBooking(String merchantId, String bookingId) {
        return db.sql("""
                        select status from payments
                        where merchant_id = :merchant and booking_id = :booking
                          and status in %s
                        order by (status = %s) desc
                        limit 1""".formatted(LIVE, COMPLETED))
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
    public Mono<Void> insertCreated(Payment payment, PaymentTransition transition, Attempt attempt, Event event) {
        return insertCreated(payment, transition, attempt, event, null).then();
    }

    /**
     * {@link #insertCreated(Payment, PaymentTransition, Attempt, Event)} that writes only for the row of a CTE part
     * written first in the same statement (the idempotency key's claim): true when it wrote, false when that CTE
     * yielded no row and nothing was written. Without a part ({@code null}) it always writes.
     */
    public Mono<Boolean> insertCreated(Payment payment, PaymentTransition transition, Attempt attempt, Event event,
                                @Nullable SqlPart onlyFor) {
        SqlPart outbox = events.insertFrom("outbox", "payment", event);
        String guardCte = onlyFor == null ? null : onlyFor.sql().substring(0, onlyFor.sql().indexOf(' '));
        String bookingRow = "(:merchant, :booking, " + AWAITING_PAYMENT + ", 1, :createdAt, :createdAt)";
        String paymentRow = """
                (:id, :merchant, :booking, :amount, :currency, :method, :email, :description,
                    :status, :failureReason, :attempt, :connector, :version, :createdAt, :updatedAt,
                    :metadata, :captureMethod, :returnUrl)""";
        return db.sql("with " + (onlyFor == null ? "" : onlyFor.sql() + ",\n") + """
                        booking as (
                            insert into bookings (merchant_id, id, status, version, created_at, updated_at)
                            """ + rows(bookingRow, guardCte) + """
                            on conflict (merchant_id, id) do nothing),
                        payment as (
                            insert into payments (""" + PaymentRows.INSERT_COLUMNS + """
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
                .bind("metadata", PaymentRows.metadataJson(payment.metadata()))
                .bind("captureMethod", payment.hold().captureMethod().value())
                .bind("returnUrl", nullable(payment.action().returnUrl()))
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
    public Mono<Attempt> updateWithHistory(Payment changed, long expectedVersion, PaymentTransition transition,
                                    Attempt attempt, boolean newAttempt, Event event) {
        SqlPart outbox = event == null ? null : events.insertFrom("outbox", "changed", event);
        String attemptPart = newAttempt ? NEW_ATTEMPT + "changed" + NEW_ATTEMPT_RETURNING : UPDATE_ATTEMPT;
        return db.sql("""
                        with changed as (
                            update payments
                            set status = :status, failure_reason = :failureReason, attempt = :attempt,
                                version = :version, updated_at = :updatedAt, changed_at = now(),
                                """ + HOLD_SET + """
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
                .bindValues(holdValues(changed.hold(), changed.action()))
                .bindValues(transitionValues(transition))
                .bindValues(attemptValues(attempt, newAttempt))
                .bindValues(outbox == null ? Map.of() : outbox.values())
                .map(PaymentStore::attempt)
                .one()
                .switchIfEmpty(Mono.error(() -> new OptimisticLockingFailureException(
                        "payment " + changed.id() + " is no longer at version " + expectedVersion)));
    }

    /** What {@link #updateCurrentAttemptWith} did. */
    public enum GuardedWrite {
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
    public Mono<GuardedWrite> updateCurrentAttemptWith(Payment changed, long expectedVersion, PaymentTransition transition,
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
                                version = :version, updated_at = :updatedAt, changed_at = now(),
                                """ + HOLD_SET + """
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
                .bindValues(holdValues(changed.hold(), changed.action()))
                .bindValues(transitionValues(transition))
                .bindValues(attemptValues(attempt, false))
                .bindValues(outbox == null ? Map.of() : outbox.values())
                .bindValues(part.values())
                .map(row -> row.get("found", Long.class) == 0 ? GuardedWrite.STALE
                        : row.get("written", Long.class) == 1 ? GuardedWrite.WRITTEN : GuardedWrite.REFUSED_BY_PART)
                .one();
    }

    /** The hold's and the customer action's columns, written with every transition (they change with it). */
    private static final String HOLD_SET = """
            amount_captured = :amountCaptured, capture_amount = :captureAmount, captures = :captures,
                                authorized_at = :authorizedAt, authorization_expires_at = :expiresAt,
                                cancel_requested_at = :cancelRequestedAt, cancel_reason = :cancelReason,
                                next_action_url = :nextActionUrl, action_required_at = :actionRequiredAt
            """;

    private static Map<String, Parameter> holdValues(Hold hold, CustomerAction action) {
        Map<String, Parameter> values = new HashMap<>();
        values.put("amountCaptured", Parameter.from(hold.amountCaptured()));
        values.put("captureAmount", Parameter.fromOrEmpty(hold.captureAmount(), Long.class));
        values.put("captures", Parameter.from(hold.captures()));
        values.put("authorizedAt", Parameter.fromOrEmpty(hold.authorizedAt(), Instant.class));
        values.put("expiresAt", Parameter.fromOrEmpty(hold.expiresAt(), Instant.class));
        values.put("cancelRequestedAt", Parameter.fromOrEmpty(hold.cancelRequestedAt(), Instant.class));
        values.put("cancelReason", nullable(hold.cancelReason()));
        values.put("nextActionUrl", nullable(action.nextActionUrl()));
        values.put("actionRequiredAt", Parameter.fromOrEmpty(action.requiredAt(), Instant.class));
        return values;
    }

    /**
     * Records that a cancel won: the hold columns of {@code changed} (its cancel request) written, the version raised,
     * only if the row is still at {@code expectedVersion} in the same status and without a capture in flight or a
     * cancel already requested. False when it lost (re-read and decide again).
     */
    public Mono<Boolean> requestCancel(Payment changed, long expectedVersion) {
        return db.sql("""
                        update payments
                        set cancel_requested_at = :cancelRequestedAt, cancel_reason = :cancelReason,
                            version = :version, updated_at = :updatedAt, changed_at = now()
                        where id = :id and version = :expectedVersion and status = :status
                          and capture_amount is null and cancel_requested_at is null""")
                .bind("cancelRequestedAt", changed.hold().cancelRequestedAt())
                .bind("cancelReason", nullable(changed.hold().cancelReason()))
                .bind("version", changed.version())
                .bind("updatedAt", changed.updatedAt())
                .bind("id", changed.id())
                .bind("expectedVersion", expectedVersion)
                .bind("status", changed.status().name())
                .fetch().rowsUpdated()
                .map(updated -> updated == 1);
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

    private static Attempt attempt(Readable row) {
        return new Attempt(row.get("number", Integer.class), row.get("connector", String.class),
                row.get("reference", String.class), AttemptStatus.valueOf(row.get("status", String.class)),
                row.get("failure_reason", String.class), row.get("created_at", Instant.class));
    }

    private static Parameter nullable(String value) {
        return Parameter.fromOrEmpty(value, String.class);
    }
}
