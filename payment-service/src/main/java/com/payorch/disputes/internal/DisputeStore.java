package com.payorch.disputes.internal;

import com.payorch.disputes.Dispute;
import com.payorch.statemachine.DisputeStatus;
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

/** SQL for disputes. */
@Component
public class DisputeStore {

    static final String COLUMNS = """
            id, merchant_id, payment_id, attempt, connector, connector_reference, amount, currency, status, reason,
            evidence_due_by, version, created_at, updated_at""";

    private final DatabaseClient db;

    public DisputeStore(DatabaseClient db) {
        this.db = db;
    }

    public Mono<Dispute> find(String merchantId, String disputeId) {
        return db.sql("select " + COLUMNS + " from disputes where id = :id and merchant_id = :merchant")
                .bind("id", disputeId)
                .bind("merchant", merchantId)
                .map(DisputeStore::dispute)
                .one();
    }

    /** The payment's disputes, newest first. */
    public Flux<Dispute> ofPayment(String merchantId, String paymentId) {
        return db.sql("select " + COLUMNS + " from disputes where payment_id = :payment and merchant_id = :merchant"
                        + " order by created_at desc, id desc")
                .bind("payment", paymentId)
                .bind("merchant", merchantId)
                .map(DisputeStore::dispute)
                .all();
    }

    /**
     * At most {@code limit} of the merchant's disputes (of {@code status} when given), newest first, after the
     * dispute {@code startingAfter}, which must be one of them ({@link UnknownCursor}).
     */
    public Flux<Dispute> list(String merchantId, @Nullable DisputeStatus status, @Nullable String startingAfter,
                              int limit) {
        String statusFilter = status == null ? "" : " and status = :status";
        Mono<Optional<Map.Entry<Instant, String>>> cursor = startingAfter == null
                ? Mono.just(Optional.empty())
                : bindStatus(db.sql("select created_at, id from disputes where id = :id and merchant_id = :merchant"
                                + statusFilter), status)
                        .bind("id", startingAfter)
                        .bind("merchant", merchantId)
                        .map(row -> Optional.of(Map.entry(row.get("created_at", Instant.class),
                                row.get("id", String.class))))
                        .one()
                        .switchIfEmpty(Mono.error(() -> new UnknownCursor(startingAfter)));
        return cursor.flatMapMany(after -> {
            StringBuilder sql = new StringBuilder("select " + COLUMNS
                    + " from disputes where merchant_id = :merchant" + statusFilter);
            Map<String, Parameter> values = new HashMap<>();
            values.put("merchant", Parameter.from(merchantId));
            if (status != null) {
                values.put("status", Parameter.from(status.name()));
            }
            after.ifPresent(keyset -> {
                sql.append(" and (created_at, id) < (:afterAt, :afterId)");
                values.put("afterAt", Parameter.from(keyset.getKey()));
                values.put("afterId", Parameter.from(keyset.getValue()));
            });
            sql.append(" order by created_at desc, id desc limit :limit");
            values.put("limit", Parameter.from(limit));
            return db.sql(sql.toString()).bindValues(values)
                    .map(DisputeStore::dispute)
                    .all();
        });
    }

    private static DatabaseClient.GenericExecuteSpec bindStatus(DatabaseClient.GenericExecuteSpec spec,
                                                                @Nullable DisputeStatus status) {
        return status == null ? spec : spec.bind("status", status.name());
    }

    static Dispute dispute(Readable row) {
        return new Dispute(row.get("id", String.class), row.get("payment_id", String.class),
                row.get("amount", Long.class), row.get("currency", String.class),
                DisputeStatus.valueOf(row.get("status", String.class)), row.get("reason", String.class),
                row.get("connector", String.class), row.get("connector_reference", String.class),
                row.get("evidence_due_by", Instant.class), row.get("version", Long.class),
                row.get("created_at", Instant.class), row.get("updated_at", Instant.class));
    }
}
