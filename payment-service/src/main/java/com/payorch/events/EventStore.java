package com.payorch.events;

import tools.jackson.databind.ObjectMapper;
import com.payorch.support.Ids;
import com.payorch.support.SqlPart;
import java.util.HashMap;
import io.r2dbc.postgresql.codec.Json;
import io.r2dbc.spi.Readable;
import java.time.Instant;
import java.util.Map;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.r2dbc.core.Parameter;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** The outbox table: appends inside the caller's transaction, and lists a merchant's events oldest first. */
@Component
public class EventStore {

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
