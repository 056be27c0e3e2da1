package com.payorch.payments.internal;

import com.payorch.payments.Attempt;
import com.payorch.payments.AttemptStatus;
import com.payorch.payments.PaymentFilter;
import com.payorch.payments.PaymentRows;
import com.payorch.payments.PaymentTransition;
import com.payorch.payments.PaymentWithHistory;
import com.payorch.payments.TransitionSource;
import com.payorch.statemachine.PaymentEvent;
import com.payorch.statemachine.PaymentStatus;
import com.payorch.support.Page;
import com.payorch.support.PageRequest;
import com.payorch.support.SqlPart;
import com.payorch.support.UnknownCursor;
import io.r2dbc.spi.Readable;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.r2dbc.core.Parameter;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * SQL for payments as the API shows them, each with its history and attempts (one query, JSON-aggregated): one
 * payment, or a page of a merchant's payments (keyset pagination over the {@code payments_list*} indexes).
 */
@Component
public class PaymentListQueries {

    private static final String COLUMNS = PaymentRows.COLUMNS;

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

    private final DatabaseClient db;
    private final ObjectMapper objectMapper;

    public PaymentListQueries(DatabaseClient db, ObjectMapper objectMapper) {
        this.db = db;
        this.objectMapper = objectMapper;
    }

    /** A payment with its history and attempts, in one query. */
    public Mono<PaymentWithHistory> findWithHistory(String merchantId, String paymentId) {
        return db.sql("select " + COLUMNS + ", amount_refunded, amount_disputed, " + HISTORY_JSON + " as history, "
                        + ATTEMPTS_JSON + " as attempts"
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
        return new SqlPart("select " + COLUMNS + ", amount_refunded, amount_disputed, " + HISTORY_JSON
                + " as history, " + ATTEMPTS_JSON
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
        return new PaymentWithHistory(PaymentRows.payment(row), history(row.get("history", String.class)),
                attempts(row.get("attempts", String.class)));
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
}
