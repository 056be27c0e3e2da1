package com.payorch.recovery;

import com.payorch.gateway.ChargeRequest;
import com.payorch.payments.Payment;
import com.payorch.payments.PaymentRows;
import com.payorch.statemachine.PaymentStatus;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;

/**
 * Finds payments stuck in a status. Every time compared is the database's (`changed_at`, `started_at`,
 * `connector_since` and `now()`),
 * so instances whose clocks disagree still agree on what is stuck.
 */
@Component
class StuckPayments {

    /**
     * A stuck payment, whether its current attempt began longer ago than the give-up horizon, how long ago it began,
     * how long it has been at its current connector (what that connector's idempotency key lifetime is measured
     * against), the connector's reference of its charge when recorded, and why it needs a person when it does.
     */
    record Stuck(Payment payment, boolean overdue, Duration waited, Duration atConnector, @Nullable String reference,
                 @Nullable String attention) {

        Stuck(Payment payment, boolean overdue, Duration waited) {
            this(payment, overdue, waited, waited, null, null);
        }

        /** The current attempt's charge request, with the connector's recorded id of its charge. */
        ChargeRequest chargeRequest() {
            return payment.chargeRequest().withReference(reference);
        }
    }

    private final DatabaseClient db;

    StuckPayments(DatabaseClient db) {
        this.db = db;
    }

    /**
     * Payments of any merchant left in `status` for longer than `quietFor`, oldest first, leaving out those a
     * recovery job of `claimKind` holds a lease on (so a payment that stays stuck does not crowd out the others).
     */
    Flux<Stuck> find(PaymentStatus status, Duration quietFor, Duration giveUpAfter, String claimKind, int limit) {
        return db.sql("select " + prefixed() + ", a.started_at < now() - make_interval(secs => :giveUp) as overdue,"
                        + " greatest(0, extract(epoch from now() - a.started_at) * 1000)::bigint as waited_millis,"
                        + " greatest(0, extract(epoch from now() - a.connector_since) * 1000)::bigint"
                        + " as at_connector_millis, a.reference as attempt_reference,"
                        + " a.attention_reason as attempt_attention"
                        + " from payments p join payment_attempts a on a.payment_id = p.id and a.number = p.attempt"
                        + " where p.status = :status and p.changed_at < now() - make_interval(secs => :seconds)"
                        + " and not exists (select 1 from work_claims c where c.kind = :kind and c.item_id = p.id"
                        + " and c.claimed_until > now())"
                        + " order by p.changed_at limit :limit")
                .bind("status", status.name())
                .bind("kind", claimKind)
                .bind("seconds", seconds(quietFor))
                .bind("giveUp", seconds(giveUpAfter))
                .bind("limit", limit)
                .map(row -> new Stuck(PaymentRows.payment(row), Boolean.TRUE.equals(row.get("overdue", Boolean.class)),
                        Duration.ofMillis(row.get("waited_millis", Long.class)),
                        Duration.ofMillis(row.get("at_connector_millis", Long.class)),
                        row.get("attempt_reference", String.class), row.get("attempt_attention", String.class)))
                .all();
    }

    private static String prefixed() {
        return String.join(", ", java.util.Arrays.stream(PaymentRows.COLUMNS.split(","))
                .map(String::trim).map(column -> "p." + column).toList());
    }

    private static double seconds(Duration duration) {
        return duration.toMillis() / 1000.0;
    }
}
