package com.payorch.payments;

import com.payorch.statemachine.PaymentEvent;
import com.payorch.statemachine.PaymentStatus;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import com.payorch.events.Event;
import io.r2dbc.postgresql.codec.Json;
import io.r2dbc.spi.Readable;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.springframework.dao.OptimisticLockingFailureException;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.r2dbc.core.Parameter;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * SQL for payments and their transitions. Every read is scoped to a merchant unless its name says otherwise. A change
 * of a payment is written with its transition and its outbox event in one statement (data-modifying CTEs): one
 * round trip instead of three, which is most of a create's cost.
 */
@Component
public class PaymentStore {

    private static final String COLUMNS = """
            id, merchant_id, booking_id, amount, currency, payment_method, customer_email, description, status,
            failure_reason, attempt, version, created_at, updated_at""";

    // Data-modifying CTE parts: each inserts one row per row of the CTE named after "from".
    private static final String INSERT_TRANSITION_FROM = """
            insert into payment_transitions (payment_id, from_status, to_status, event, source, source_id, at)
            select id, :fromStatus, :toStatus, :transitionEvent, :source, :sourceId, :transitionAt from\s""";
    private static final String INSERT_EVENT_FROM = """
            insert into events (id, merchant_id, type, payment_id, booking_id, data, created_at)
            select :eventId, :eventMerchant, :eventType, id, :eventBooking, :eventData, :eventAt from\s""";
    private static final String HISTORY_JSON = """
            coalesce((select json_agg(json_build_object('from', t.from_status, 'to', t.to_status, 'event', t.event,
                'source', t.source, 'sourceId', t.source_id,
                'at', to_char(t.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')) order by t.id)
              from payment_transitions t where t.payment_id = p.id), '[]')::text""";

    private final DatabaseClient db;
    private final ObjectMapper objectMapper;

    public PaymentStore(DatabaseClient db, ObjectMapper objectMapper) {
        this.db = db;
        this.objectMapper = objectMapper;
    }

    public Mono<Payment> find(String merchantId, String paymentId) {
        return db.sql("select " + COLUMNS + " from payments where id = :id and merchant_id = :merchant")
                .bind("id", paymentId)
                .bind("merchant", merchantId)
                .map(PaymentStore::payment)
                .one();
    }

    /** For callers that authenticate otherwise than by merchant, such as signed gateway webhooks. */
    public Mono<Payment> findAnyMerchant(String paymentId) {
        return db.sql("select " + COLUMNS + " from payments where id = :id")
                .bind("id", paymentId)
                .map(PaymentStore::payment)
                .one();
    }

    public Flux<Payment> findByBooking(String merchantId, String bookingId) {
        return db.sql("select " + COLUMNS + " from payments where merchant_id = :merchant and booking_id = :booking"
                        + " order by created_at desc, id desc")
                .bind("merchant", merchantId)
                .bind("booking", bookingId)
                .map(PaymentStore::payment)
                .all();
    }

    /**
     * Payments of any merchant left in `status` since before `quietFor` ago (database clock), oldest first, leaving
     * out those a recovery job of `claimKind` holds a lease on (so a payment that stays stuck does not crowd out
     * the others).
     */
    public Flux<Payment> findStuck(PaymentStatus status, java.time.Duration quietFor, String claimKind, int limit) {
        return db.sql("select " + COLUMNS + " from payments p where status = :status"
                        + " and updated_at < now() - make_interval(secs => :seconds)"
                        + " and not exists (select 1 from work_claims c where c.kind = :kind and c.item_id = p.id"
                        + " and c.claimed_until > now())"
                        + " order by updated_at limit :limit")
                .bind("status", status.name())
                .bind("kind", claimKind)
                .bind("seconds", quietFor.toMillis() / 1000.0)
                .bind("limit", limit)
                .map(PaymentStore::payment)
                .all();
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
     * Writes a new payment with its first transition and its outbox event, creating the merchant's booking on its
     * first payment: one statement, so one round trip. The booking guard's index may refuse the payment.
     */
    Mono<Void> insertCreated(Payment payment, PaymentTransition transition, Event event) {
        return db.sql("""
                        with booking as (
                            insert into bookings (merchant_id, id, status, version, created_at, updated_at)
                            values (:merchant, :booking, 'AWAITING_PAYMENT', 1, :createdAt, :createdAt)
                            on conflict (merchant_id, id) do nothing),
                        payment as (
                            insert into payments (""" + COLUMNS + """
                            )
                            values (:id, :merchant, :booking, :amount, :currency, :method, :email, :description,
                                :status, :failureReason, :attempt, :version, :createdAt, :updatedAt)
                            returning id),
                        transition as (""" + INSERT_TRANSITION_FROM + """
                            payment)
                        """ + INSERT_EVENT_FROM + """
                        payment""")
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
                .bind("version", payment.version())
                .bind("createdAt", payment.createdAt())
                .bind("updatedAt", payment.updatedAt())
                .bindValues(transitionValues(transition))
                .bindValues(eventValues(event))
                .then();
    }

    /**
     * Writes `changed` only if the row still has the version it was read at, with its transition and (when there is
     * one) its outbox event, in one statement. A lost race is an error, never a silent overwrite.
     */
    Mono<Void> updateWithHistory(Payment changed, long expectedVersion, PaymentTransition transition, Event event) {
        String outbox = event == null ? "" : ", outbox as (" + INSERT_EVENT_FROM + " changed)";
        return db.sql("""
                        with changed as (
                            update payments
                            set status = :status, failure_reason = :failureReason, attempt = :attempt,
                                version = :version, updated_at = :updatedAt
                            where id = :id and version = :expectedVersion
                            returning id),
                        transition as (""" + INSERT_TRANSITION_FROM + """
                            changed)""" + outbox + """
                        select count(*) from changed""")
                .bind("status", changed.status().name())
                .bind("failureReason", nullable(changed.failureReason()))
                .bind("attempt", changed.attempt())
                .bind("version", changed.version())
                .bind("updatedAt", changed.updatedAt())
                .bind("id", changed.id())
                .bind("expectedVersion", expectedVersion)
                .bindValues(transitionValues(transition))
                .bindValues(event == null ? Map.of() : eventValues(event))
                .map(row -> row.get(0, Long.class))
                .one()
                .flatMap(rows -> rows == 1 ? Mono.<Void>empty() : Mono.error(new OptimisticLockingFailureException(
                        "payment " + changed.id() + " is no longer at version " + expectedVersion)));
    }

    /** A payment and its history, oldest transition first, in one query. */
    public Mono<PaymentWithHistory> findWithHistory(String merchantId, String paymentId) {
        return db.sql("select " + COLUMNS + ", " + HISTORY_JSON + " as history from payments p"
                        + " where id = :id and merchant_id = :merchant")
                .bind("id", paymentId)
                .bind("merchant", merchantId)
                .map(row -> new PaymentWithHistory(payment(row), history(row.get("history", String.class))))
                .one();
    }

    /** The histories of several payments in one query, each oldest first. */
    public Mono<Map<String, List<PaymentTransition>>> historiesOf(Collection<String> paymentIds) {
        if (paymentIds.isEmpty()) {
            return Mono.just(Map.of());
        }
        return db.sql("""
                        select payment_id, from_status, to_status, event, source, source_id, at
                        from payment_transitions where payment_id = any(:ids) order by id""")
                .bind("ids", paymentIds.toArray(String[]::new))
                .map(row -> Map.entry(row.get("payment_id", String.class), transition(row)))
                .all()
                .collect(Collectors.groupingBy(Map.Entry::getKey,
                        Collectors.mapping(Map.Entry::getValue, Collectors.toList())));
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

    private static Map<String, Parameter> eventValues(Event event) {
        Map<String, Parameter> values = new HashMap<>();
        values.put("eventId", Parameter.from(event.id()));
        values.put("eventMerchant", Parameter.from(event.merchantId()));
        values.put("eventType", Parameter.from(event.type().value()));
        values.put("eventBooking", nullable(event.bookingId()));
        values.put("eventData", Parameter.from(Json.of(event.dataJson())));
        values.put("eventAt", Parameter.from(event.createdAt()));
        return values;
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

    private static PaymentTransition transition(Readable row) {
        String from = row.get("from_status", String.class);
        return new PaymentTransition(from == null ? null : PaymentStatus.valueOf(from),
                PaymentStatus.valueOf(row.get("to_status", String.class)),
                PaymentEvent.valueOf(row.get("event", String.class)),
                TransitionSource.fromValue(row.get("source", String.class)),
                row.get("source_id", String.class),
                row.get("at", Instant.class));
    }

    private static Payment payment(Readable row) {
        return new Payment(row.get("id", String.class), row.get("merchant_id", String.class),
                row.get("booking_id", String.class), row.get("amount", Long.class), row.get("currency", String.class),
                row.get("payment_method", String.class), row.get("customer_email", String.class),
                row.get("description", String.class), PaymentStatus.valueOf(row.get("status", String.class)),
                row.get("failure_reason", String.class), row.get("attempt", Integer.class), row.get("version", Long.class),
                row.get("created_at", Instant.class), row.get("updated_at", Instant.class));
    }

    private static Parameter nullable(String value) {
        return Parameter.fromOrEmpty(value, String.class);
    }
}
