package com.payorch.recovery;

import com.payorch.payments.Payment;
import com.payorch.payments.PaymentRows;
import com.payorch.payments.TransitionSource;
import com.payorch.statemachine.PaymentEvent;
import com.payorch.statemachine.PaymentStatus;
import com.payorch.support.SqlLiterals;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.stream.Collectors;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Finds the holds the jobs act on: captures with no outcome, cancels not confirmed, authorisations about to lapse.
 * "Now" is the database's, as in {@link StuckPayments}; leases held by a job of {@code claimKind} leave a payment out.
 */
@Component
class StuckHolds {

    /** Where a cancel may still be sent from (the payment's life cycle allows CANCEL). */
    static final String CANCELLABLE = SqlLiterals.in(EnumSet.of(PaymentStatus.PENDING, PaymentStatus.PROCESSING,
            PaymentStatus.REQUIRES_ACTION, PaymentStatus.AUTHORIZED));
    /** The source id of the transitions the expiry job causes. */
    static final String EXPIRY = "authorization-expiry";

    /**
     * A hold found, and how long ago its payment last changed: for a CAPTURING payment that is when its capture was
     * recorded (nothing else changes it until the capture settles), what the capture key's lifetime is measured from.
     */
    record Held(Payment payment, Duration sinceChange) {
    }

    /** The expiry job started a capture of the payment {@code p} (one action per payment, even if it failed). */
    private static final String CAPTURED_ON_EXPIRY = "select 1 from payment_transitions t where t.payment_id = p.id"
            + " and t.event = '" + PaymentEvent.CAPTURE.name() + "' and t.source = '"
            + TransitionSource.RECOVERY.value() + "' and t.source_id = '" + EXPIRY + "'";
    private static final String NOT_CLAIMED = " and not exists (select 1 from work_claims c where c.kind = :kind"
            + " and c.item_id = p.id and c.claimed_until > now())";
    private static final String SINCE_CHANGE =
            "greatest(0, extract(epoch from now() - p.changed_at) * 1000)::bigint as since_change_millis";

    private final DatabaseClient db;

    StuckHolds(DatabaseClient db) {
        this.db = db;
    }

    /** CAPTURING payments whose capture has had no outcome for {@code quietFor}, oldest first. */
    Flux<Held> capturing(Duration quietFor, String claimKind, int limit) {
        return held("p.status = " + SqlLiterals.of(PaymentStatus.CAPTURING) + " and p.capture_amount is not null",
                quietFor, claimKind, limit);
    }

    /** Payments whose cancel was recorded and not confirmed, unchanged for {@code quietFor}, oldest first. */
    Flux<Held> cancelling(Duration quietFor, String claimKind, int limit) {
        return held("p.cancel_requested_at is not null and p.status in " + CANCELLABLE, quietFor, claimKind, limit);
    }

    /**
     * AUTHORIZED payments whose authorisation lapses within {@code margin}, no cancel requested and no expiry action
     * taken yet (a capture it started that failed is not started again: the payment needs a person), soonest first.
     */
    Flux<Held> expiring(Duration margin, String claimKind, int limit) {
        return db.sql("select " + prefixed() + ", " + SINCE_CHANGE + " from payments p"
                        + " where p.status = " + SqlLiterals.of(PaymentStatus.AUTHORIZED)
                        + " and p.authorization_expires_at <= now() + make_interval(secs => :margin)"
                        + " and p.cancel_requested_at is null and not exists (" + CAPTURED_ON_EXPIRY + ")"
                        + NOT_CLAIMED
                        + " order by p.authorization_expires_at limit :limit")
                .bind("margin", seconds(margin))
                .bind("kind", claimKind)
                .bind("limit", limit)
                .map(row -> new Held(PaymentRows.payment(row), sinceChange(row)))
                .all();
    }

    /**
     * AUTHORIZED payments lapsing within {@code margin} whose capture on expiry did not take (the capture failed),
     * not yet marked as needing attention.
     */
    Flux<Payment> expiryCaptureFailed(Duration margin, int limit) {
        return db.sql("select " + prefixed() + " from payments p"
                        + " where p.status = " + SqlLiterals.of(PaymentStatus.AUTHORIZED)
                        + " and p.authorization_expires_at <= now() + make_interval(secs => :margin)"
                        + " and exists (" + CAPTURED_ON_EXPIRY + ")"
                        + " and exists (select 1 from payment_attempts a where a.payment_id = p.id"
                        + " and a.number = p.attempt and a.attention_reason is null)"
                        + " order by p.authorization_expires_at limit :limit")
                .bind("margin", seconds(margin))
                .bind("limit", limit)
                .map(PaymentRows::payment)
                .all();
    }

    /** How many AUTHORIZED payments' authorisations lapse within {@code margin} (the gauge). */
    Mono<Long> countExpiring(Duration margin) {
        return db.sql("select count(*) as expiring from payments p where p.status = "
                        + SqlLiterals.of(PaymentStatus.AUTHORIZED)
                        + " and p.authorization_expires_at <= now() + make_interval(secs => :margin)")
                .bind("margin", seconds(margin))
                .map(row -> row.get("expiring", Long.class))
                .one();
    }

    private Flux<Held> held(String condition, Duration quietFor, String claimKind, int limit) {
        return db.sql("select " + prefixed() + ", " + SINCE_CHANGE + " from payments p where " + condition
                        + " and p.changed_at < now() - make_interval(secs => :seconds)" + NOT_CLAIMED
                        + " order by p.changed_at limit :limit")
                .bind("seconds", seconds(quietFor))
                .bind("kind", claimKind)
                .bind("limit", limit)
                .map(row -> new Held(PaymentRows.payment(row), sinceChange(row)))
                .all();
    }

    private static Duration sinceChange(io.r2dbc.spi.Readable row) {
        return Duration.ofMillis(row.get("since_change_millis", Long.class));
    }

    private static String prefixed() {
        return Arrays.stream(PaymentRows.COLUMNS.split(",")).map(String::trim).map(column -> "p." + column)
                .collect(Collectors.joining(", "));
    }

    private static double seconds(Duration duration) {
        return duration.toMillis() / 1000.0;
    }
}
