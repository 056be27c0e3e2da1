package com.payorch.outbox;

import io.r2dbc.postgresql.codec.Json;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.UUID;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The delivery bookkeeping on the `events` table. Each method is one statement, i.e. its own short transaction;
 * times come from the database clock so that all instances agree.
 */
@Component
class OutboxQueue {

    private final DatabaseClient db;

    OutboxQueue(DatabaseClient db) {
        this.db = db;
    }

    /**
     * Claims up to `limit` due events, oldest first, for `lease`. SKIP LOCKED lets several instances claim at once
     * without waiting for or taking each other's rows; the lease lets another instance take over an event whose
     * claimer died.
     */
    Flux<ClaimedEvent> claim(int limit, Duration lease, UUID token) {
        return db.sql("""
                        with due as (
                            select seq from events
                            where dispatched_at is null
                              and (next_attempt_at is null or next_attempt_at <= now())
                              and (claimed_until is null or claimed_until <= now())
                            order by seq
                            limit :limit
                            for update skip locked
                        )
                        update events e
                        set attempts = e.attempts + 1, claimed_by = :token,
                            claimed_until = now() + make_interval(secs => :leaseSeconds)
                        from due where e.seq = due.seq
                        returning e.seq, e.id, e.merchant_id, e.type, e.payment_id, e.booking_id, e.data, e.created_at,
                                  e.attempts""")
                .bind("limit", limit)
                .bind("token", token)
                .bind("leaseSeconds", seconds(lease))
                .map(row -> new ClaimedEvent(row.get("seq", Long.class), row.get("id", String.class),
                        row.get("merchant_id", String.class), row.get("type", String.class),
                        row.get("payment_id", String.class), row.get("booking_id", String.class),
                        row.get("data", Json.class).asString(), row.get("created_at", Instant.class),
                        row.get("attempts", Integer.class)))
                .all()
                .sort((a, b) -> Long.compare(a.seq(), b.seq()));
    }

    /** Not fenced by the claim: an event that was delivered is dispatched, whoever holds it now. */
    Mono<Void> markDispatched(Collection<String> eventIds) {
        return db.sql("""
                        update events set dispatched_at = now(), claimed_by = null, claimed_until = null
                        where id = any(:ids) and dispatched_at is null""")
                .bind("ids", eventIds.toArray(String[]::new))
                .then();
    }

    /** Only while this batch still holds the claim, so a late failure cannot disturb the instance that took over. */
    Mono<Void> markFailed(String eventId, UUID token, Duration backoff, String error) {
        return db.sql("""
                        update events
                        set next_attempt_at = now() + make_interval(secs => :backoffSeconds), last_error = :error,
                            claimed_by = null, claimed_until = null
                        where id = :id and claimed_by = :token and dispatched_at is null""")
                .bind("backoffSeconds", seconds(backoff))
                .bind("error", error)
                .bind("id", eventId)
                .bind("token", token)
                .then();
    }

    Mono<Long> countUndispatched() {
        return db.sql("select count(*) from events where dispatched_at is null")
                .map(row -> row.get(0, Long.class))
                .one();
    }

    private static double seconds(Duration duration) {
        return duration.toMillis() / 1000.0;
    }
}
