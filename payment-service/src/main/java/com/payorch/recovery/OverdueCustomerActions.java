package com.payorch.recovery;

import com.payorch.payments.Payment;
import com.payorch.payments.PaymentRows;
import com.payorch.statemachine.PaymentStatus;
import com.payorch.support.SqlLiterals;
import java.time.Duration;
import java.util.Arrays;
import java.util.stream.Collectors;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Finds the payments waiting for their customer (REQUIRES_ACTION, index {@code payments_awaiting_customer}) and those
 * waiting longer than {@code payments.customer-action.expires-after}. "Now" is the database's, as in
 * {@link StuckPayments}, so every instance's job agrees on what is overdue; {@code action_required_at} is the clock of
 * the instance that wrote the transition, off by seconds at most against an expiry meant to be tens of minutes.
 */
@Component
class OverdueCustomerActions {

    /** How many payments wait for their customer, and how many of them longer than the expiry. */
    record Waiting(long waiting, long overdue) {
    }

    private static final String AWAITING = "p.status = " + SqlLiterals.of(PaymentStatus.REQUIRES_ACTION);
    private static final String PAST_EXPIRY = "p.action_required_at < now() - make_interval(secs => :expiresAfter)";

    private final DatabaseClient db;

    OverdueCustomerActions(DatabaseClient db) {
        this.db = db;
    }

    /**
     * Payments waiting for their customer longer than {@code expiresAfter}, longest waiting first, leaving out those a
     * job of {@code claimKind} holds a lease on (one the connector leaves unconfirmed does not crowd out the others).
     */
    Flux<Payment> overdue(Duration expiresAfter, String claimKind, int limit) {
        return db.sql("select " + prefixed() + " from payments p where " + AWAITING + " and " + PAST_EXPIRY
                        + " and not exists (select 1 from work_claims c where c.kind = :kind and c.item_id = p.id"
                        + " and c.claimed_until > now())"
                        + " order by p.action_required_at limit :limit")
                .bind("expiresAfter", seconds(expiresAfter))
                .bind("kind", claimKind)
                .bind("limit", limit)
                .map(PaymentRows::payment)
                .all();
    }

    Mono<Waiting> count(Duration expiresAfter) {
        return db.sql("select count(*) as waiting, count(*) filter (where " + PAST_EXPIRY + ") as overdue"
                        + " from payments p where " + AWAITING)
                .bind("expiresAfter", seconds(expiresAfter))
                .map(row -> new Waiting(row.get("waiting", Long.class), row.get("overdue", Long.class)))
                .one();
    }

    private static String prefixed() {
        return Arrays.stream(PaymentRows.COLUMNS.split(",")).map(String::trim).map(column -> "p." + column)
                .collect(Collectors.joining(", "));
    }

    private static double seconds(Duration duration) {
        return duration.toMillis() / 1000.0;
    }
}
