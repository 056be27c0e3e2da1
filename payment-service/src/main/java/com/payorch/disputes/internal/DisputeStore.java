package com.payorch.disputes.internal;

import com.payorch.disputes.Dispute;
import com.payorch.disputes.DisputeReport;
import com.payorch.support.SqlLiterals;
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

/**
 * SQL for disputes. The writes are steps of one transaction ({@link com.payorch.disputes.DisputeReports}): claiming a
 * report (its primary key makes a second delivery wait for the first and then find it applied), locking the payment
 * row (which orders every dispute change of a payment and every refund reservation of it, `RefundStore`), then
 * writing the dispute and the payment's `amount_disputed`.
 */
@Component
public class DisputeStore {

    static final String COLUMNS = """
            id, merchant_id, payment_id, attempt, connector, connector_reference, amount, currency, status, reason,
            evidence_due_by, version, created_at, updated_at""";

    private static final String DISPUTED = SqlLiterals.in(java.util.EnumSet.of(DisputeStatus.OPEN, DisputeStatus.LOST));
    private static final String OPEN = SqlLiterals.of(DisputeStatus.OPEN);

    /** The payment a report is about, its row locked until the transaction ends. */
    public record LockedPayment(String id, String merchantId, @Nullable String bookingId) {
    }

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
     * dispute {@code startingAfter}, which must be the merchant's ({@link UnknownCursor}) but need not still have
     * {@code status}: a dispute closed while a client walks the OPEN ones must not break its walk (as for payments).
     */
    public Flux<Dispute> list(String merchantId, @Nullable DisputeStatus status, @Nullable String startingAfter,
                              int limit) {
        String statusFilter = status == null ? "" : " and status = :status";
        Mono<Optional<Map.Entry<Instant, String>>> cursor = startingAfter == null
                ? Mono.just(Optional.empty())
                : db.sql("select created_at, id from disputes where id = :id and merchant_id = :merchant")
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

    /**
     * Records that the report is being applied. False when it was applied already (a concurrent delivery of it
     * waits here until the first commits or rolls back).
     */
    public Mono<Boolean> claimReport(String connector, String reportId, Instant now) {
        return db.sql("""
                        insert into dispute_reports (connector, report_id, applied_at) values (:connector, :report, :now)
                        on conflict do nothing
                        returning report_id
                        """)
                .bind("connector", connector)
                .bind("report", reportId)
                .bind("now", now)
                .map(row -> true)
                .one()
                .defaultIfEmpty(false);
    }

    public Mono<Void> linkReport(String connector, String reportId, String disputeId) {
        return db.sql("update dispute_reports set dispute_id = :dispute where connector = :connector"
                        + " and report_id = :report")
                .bind("dispute", disputeId)
                .bind("connector", connector)
                .bind("report", reportId)
                .then();
    }

    /** The dispute an applied report was applied to. */
    public Mono<Dispute> ofReport(String connector, String reportId) {
        return db.sql("select " + COLUMNS + " from disputes where id = (select dispute_id from dispute_reports"
                        + " where connector = :connector and report_id = :report)")
                .bind("connector", connector)
                .bind("report", reportId)
                .map(DisputeStore::dispute)
                .one();
    }

    /**
     * Locks the payment row; empty when there is no such payment. FOR NO KEY UPDATE, the lock every UPDATE of the row
     * takes: the caller's transaction already holds a KEY SHARE lock on it (its webhook receipt references the
     * payment), and so may a concurrent delivery's; two of them asking FOR UPDATE (which conflicts with KEY SHARE)
     * deadlocked.
     */
    public Mono<LockedPayment> lockPayment(String paymentId) {
        return db.sql("select id, merchant_id, booking_id from payments where id = :id for no key update")
                .bind("id", paymentId)
                .map(row -> new LockedPayment(row.get("id", String.class), row.get("merchant_id", String.class),
                        row.get("booking_id", String.class)))
                .one();
    }

    /** The dispute the connector knows as {@code connectorReference}, of any merchant. */
    public Mono<Dispute> byReference(String connector, String connectorReference) {
        return byReference(connector, connectorReference, "");
    }

    /** The dispute the connector knows as {@code connectorReference}, its row locked. */
    public Mono<Dispute> lockByReference(String connector, String connectorReference) {
        return byReference(connector, connectorReference, " for update");
    }

    private Mono<Dispute> byReference(String connector, String connectorReference, String lock) {
        return db.sql("select " + COLUMNS + " from disputes where connector = :connector"
                        + " and connector_reference = :reference" + lock)
                .bind("connector", connector)
                .bind("reference", connectorReference)
                .map(DisputeStore::dispute)
                .one();
    }

    /** Inserts the dispute OPEN at version 1; empty when the connector's reference is known already. */
    public Mono<Dispute> insertOpen(String disputeId, LockedPayment payment, DisputeReport report, Instant now) {
        return db.sql("""
                        insert into disputes (""" + COLUMNS + """
                        )
                        values (:id, :merchant, :payment, :attempt, :connector, :reference, :amount, :currency,\s"""
                        + OPEN + """
                        , :reason, :due, 1, :now, :now)
                        on conflict (connector, connector_reference) do nothing
                        returning\s""" + COLUMNS + "\n")
                .bind("id", disputeId)
                .bind("merchant", payment.merchantId())
                .bind("payment", payment.id())
                .bind("attempt", report.attempt())
                .bind("connector", report.connector())
                .bind("reference", report.connectorReference())
                .bind("amount", report.amount())
                .bind("currency", report.currency())
                .bind("reason", Parameter.fromOrEmpty(report.reason(), String.class))
                .bind("due", Parameter.fromOrEmpty(report.evidenceDueBy(), Instant.class))
                .bind("now", now)
                .map(DisputeStore::dispute)
                .one();
    }

    /** Moves the dispute (locked, at its version) to {@code to}, one version up. */
    public Mono<Dispute> moveTo(Dispute dispute, DisputeStatus to, Instant now) {
        return db.sql("update disputes set status = :status, version = version + 1, updated_at = :now"
                        + " where id = :id and version = :version returning " + COLUMNS)
                .bind("status", to.name())
                .bind("now", now)
                .bind("id", dispute.id())
                .bind("version", dispute.version())
                .map(DisputeStore::dispute)
                .one();
    }

    /**
     * Takes the reason and evidence due date a report gives (a report without them keeps the dispute's), one version
     * up; the dispute as it is when nothing changes.
     */
    public Mono<Dispute> updateDetails(Dispute dispute, @Nullable String reason, @Nullable Instant evidenceDueBy,
                                       Instant now) {
        return db.sql("""
                        update disputes
                        set reason = coalesce(:reason, reason), evidence_due_by = coalesce(:due, evidence_due_by),
                            version = version + 1, updated_at = :now
                        where id = :id and version = :version
                          and (reason, evidence_due_by) is distinct from
                              (coalesce(:reason, reason), coalesce(:due, evidence_due_by))
                        returning\s""" + COLUMNS + "\n")
                .bind("reason", Parameter.fromOrEmpty(reason, String.class))
                .bind("due", Parameter.fromOrEmpty(evidenceDueBy, Instant.class))
                .bind("now", now)
                .bind("id", dispute.id())
                .bind("version", dispute.version())
                .map(DisputeStore::dispute)
                .one()
                .defaultIfEmpty(dispute);
    }

    /**
     * Writes the payment's `amount_disputed` from its disputes (OPEN and LOST), in the transaction that changed them
     * (the payment row is locked by it); emits the new value.
     */
    public Mono<Long> refreshAmountDisputed(String paymentId) {
        return db.sql("""
                        update payments p
                        set amount_disputed = (select coalesce(sum(d.amount), 0) from disputes d
                                               where d.payment_id = p.id and d.status in\s""" + DISPUTED + """
                        )
                        where p.id = :payment
                        returning p.amount_disputed
                        """)
                .bind("payment", paymentId)
                .map(row -> row.get("amount_disputed", Long.class))
                .one();
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
