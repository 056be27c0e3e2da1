package com.payorch.events;

import tools.jackson.databind.ObjectMapper;
import com.payorch.support.Ids;
import com.payorch.support.SqlPart;
import java.util.HashMap;
import io.r2dbc.postgresql.codec.Json;
import io.r2dbc.spi.Readable;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import com.payorch.support.Page;
import com.payorch.support.PageRequest;
import com.payorch.support.UnknownCursor;
import org.jspecify.annotations.Nullable;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.r2dbc.core.Parameter;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** The outbox table: appends inside the caller's transaction, and lists a merchant's events oldest first. */
@Component
public class EventStore {

    private static final String COLUMNS = "id, merchant_id, type, payment_id, booking_id, data, created_at";

    private final DatabaseClient db;
    private final ObjectMapper objectMapper;

    public EventStore(DatabaseClient db, ObjectMapper objectMapper) {
        this.db = db;
        this.objectMapper = objectMapper;
    }

    /** An event with its id and JSON data, not yet written: for writers that insert it with their own change. */
    public Event newEvent(String merchantId, EventType type, String paymentId, String bookingId,
                          Map<String, Object> data, Instant at) {
        return new Event(Ids.event(), merchantId, type, paymentId, bookingId, toJson(data), at);
    }

    /**
     * A data-modifying CTE part that writes {@code event} once for each row of the CTE named {@code fromCte}
     * (used inside another package's single-statement change, which binds the returned values).
     */
    public SqlPart insertFrom(String cteName, String fromCte, Event event) {
        Map<String, Parameter> values = new HashMap<>();
        values.put("eventId", Parameter.from(event.id()));
        values.put("eventMerchant", Parameter.from(event.merchantId()));
        values.put("eventType", Parameter.from(event.type().value()));
        values.put("eventBooking", Parameter.fromOrEmpty(event.bookingId(), String.class));
        values.put("eventData", Parameter.from(Json.of(event.dataJson())));
        values.put("eventAt", Parameter.from(event.createdAt()));
        return new SqlPart(cteName + " as (insert into events (id, merchant_id, type, payment_id, booking_id, data,"
                + " created_at) select :eventId, :eventMerchant, :eventType, id, :eventBooking, :eventData, :eventAt"
                + " from " + fromCte + ")", values);
    }

    /**
     * Like {@link #insertFrom(String, String, Event)}, for statements that write several events: the parameters are
     * named after {@code cteName}, and {@code extraData} (a jsonb SQL expression over the columns of
     * {@code fromCte}, or null) is merged into the event's data, for values only the statement knows. The CTE
     * {@code fromCte} provides the payment id as {@code id}.
     */
    public SqlPart insertFrom(String cteName, String fromCte, Event event, @Nullable String extraData) {
        Map<String, Parameter> values = new HashMap<>();
        String p = cteName + "_";
        values.put(p + "id", Parameter.from(event.id()));
        values.put(p + "merchant", Parameter.from(event.merchantId()));
        values.put(p + "type", Parameter.from(event.type().value()));
        values.put(p + "booking", Parameter.fromOrEmpty(event.bookingId(), String.class));
        values.put(p + "data", Parameter.from(Json.of(event.dataJson())));
        values.put(p + "at", Parameter.from(event.createdAt()));
        String data = extraData == null ? ":" + p + "data" : "(cast(:" + p + "data as jsonb) || " + extraData + ")";
        return new SqlPart(cteName + " as (insert into events (id, merchant_id, type, payment_id, booking_id, data,"
                + " created_at) select :" + p + "id, :" + p + "merchant, :" + p + "type, id, :" + p + "booking, "
                + data + ", :" + p + "at from " + fromCte + ")", values);
    }

    public Mono<Event> append(String merchantId, EventType type, String paymentId, String bookingId,
                              Map<String, Object> data, Instant at) {
        Event event = newEvent(merchantId, type, paymentId, bookingId, data, at);
        return db.sql("""
                        insert into events (id, merchant_id, type, payment_id, booking_id, data, created_at)
                        values (:id, :merchant, :type, :payment, :booking, :data, :at)""")
                .bind("id", event.id())
                .bind("merchant", merchantId)
                .bind("type", type.value())
                .bind("payment", Parameter.fromOrEmpty(paymentId, String.class))
                .bind("booking", Parameter.fromOrEmpty(bookingId, String.class))
                .bind("data", Json.of(event.dataJson()))
                .bind("at", at)
                .then()
                .thenReturn(event);
    }

    /** A merchant's events, oldest first; each filter is applied only when given. */
    public Flux<Event> find(String merchantId, String paymentId, String bookingId, EventType type) {
        return db.sql("""
                        select id, merchant_id, type, payment_id, booking_id, data, created_at from events
                        where merchant_id = :merchant
                          and (cast(:payment as text) is null or payment_id = :payment)
                          and (cast(:booking as text) is null or booking_id = :booking)
                          and (cast(:type as text) is null or type = :type)
                        order by seq""")
                .bind("merchant", merchantId)
                .bind("payment", Parameter.fromOrEmpty(paymentId, String.class))
                .bind("booking", Parameter.fromOrEmpty(bookingId, String.class))
                .bind("type", Parameter.fromOrEmpty(type == null ? null : type.value(), String.class))
                .map(EventStore::event)
                .all();
    }

    /**
     * One page of the merchant's events, oldest first (by seq). `startingAfter` must be one of the merchant's events
     * that the filters admit; otherwise {@link UnknownCursor}.
     */
    public Mono<Page<Event>> list(String merchantId, @Nullable String paymentId, @Nullable String bookingId,
                                  @Nullable EventType type, PageRequest page) {
        Mono<Optional<Long>> cursor = page.startingAfter() == null ? Mono.just(Optional.empty())
                : cursor(merchantId, paymentId, bookingId, type, page.startingAfter()).map(Optional::of)
                        .switchIfEmpty(Mono.error(() -> new UnknownCursor(page.startingAfter())));
        return cursor.flatMap(after -> {
            SqlPart query = listQuery(merchantId, paymentId, bookingId, type, after.orElse(null), page.limit());
            return db.sql(query.sql()).bindValues(query.values())
                    .map(EventStore::event)
                    .all()
                    .collectList()
                    .map(rows -> Page.of(rows, page.limit()));
        });
    }

    /** The event (by id) and its position, if it is the merchant's and within the filters. */
    public Mono<Event> findOwn(String merchantId, String eventId) {
        return db.sql("select " + COLUMNS + " from events where id = :id and merchant_id = :merchant")
                .bind("id", eventId)
                .bind("merchant", merchantId)
                .map(EventStore::event)
                .one();
    }

    private Mono<Long> cursor(String merchantId, @Nullable String paymentId, @Nullable String bookingId,
                              @Nullable EventType type, String eventId) {
        SqlPart where = where(merchantId, paymentId, bookingId, type, null);
        return db.sql("select seq from events where id = :cursorId and " + where.sql())
                .bindValues(where.values())
                .bind("cursorId", eventId)
                .map(row -> row.get("seq", Long.class))
                .one();
    }

    /**
     * The SQL of one page (public for the test that checks its plan): only the filters given are in the WHERE clause,
     * so the planner picks that combination's index (events_by_merchant, events_by_payment, events_by_booking,
     * events_by_type) and reads it forwards from the cursor.
     */
    public SqlPart listQuery(String merchantId, @Nullable String paymentId, @Nullable String bookingId,
                             @Nullable EventType type, @Nullable Long afterSeq, int limit) {
        SqlPart where = where(merchantId, paymentId, bookingId, type, afterSeq);
        Map<String, Parameter> values = new HashMap<>(where.values());
        values.put("limit", Parameter.from(limit + 1));
        return new SqlPart("select " + COLUMNS + " from events where " + where.sql() + " order by seq limit :limit",
                values);
    }

    private static SqlPart where(String merchantId, @Nullable String paymentId, @Nullable String bookingId,
                                 @Nullable EventType type, @Nullable Long afterSeq) {
        StringBuilder sql = new StringBuilder("merchant_id = :merchant");
        Map<String, Parameter> values = new HashMap<>();
        values.put("merchant", Parameter.from(merchantId));
        if (paymentId != null) {
            sql.append(" and payment_id = :payment");
            values.put("payment", Parameter.from(paymentId));
        }
        if (bookingId != null) {
            sql.append(" and booking_id = :booking");
            values.put("booking", Parameter.from(bookingId));
        }
        if (type != null) {
            sql.append(" and type = :type");
            values.put("type", Parameter.from(type.value()));
        }
        if (afterSeq != null) {
            sql.append(" and seq > :afterSeq");
            values.put("afterSeq", Parameter.from(afterSeq));
        }
        return new SqlPart(sql.toString(), values);
    }

    private static Event event(Readable row) {
        return new Event(row.get("id", String.class), row.get("merchant_id", String.class),
                EventType.fromValue(row.get("type", String.class)).orElseThrow(),
                row.get("payment_id", String.class), row.get("booking_id", String.class),
                row.get("data", Json.class).asString(), row.get("created_at", Instant.class));
    }

    private String toJson(Map<String, Object> data) {
        return objectMapper.writeValueAsString(data);
    }
}
