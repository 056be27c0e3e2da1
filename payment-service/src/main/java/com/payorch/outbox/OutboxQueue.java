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
     * claimer died. Per payment, only the oldest undispatched event is due: a payment's events are delivered one
     * after the other, in the order they were written (a parked one holds back its payment's later events).
     */
    Flux<ClaimedEvent> claim(int limit, Duration lease, UUID token) {
        return db.sql("""
                        with due as (
                            select seq from events
                            where dispatched_at is null and parked_at is null
                              and (next_attempt_at is null or next_attempt_at <= now())
                              and (claimed_until is null or claimed_until <= now())
                              and (payment_id is null or not exists (
                                  select 1 from events earlier
                                  where earlier.payment_id = events.payment_id and earlier.seq < events.seq
                                    and earlier.dispatched_at is null))
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

    /**
     * Not fenced by the claim: an event that was delivered is dispatched, whoever holds it now. Answers whether a
     * later event of one of their payments is still waiting (it became claimable just now).
     */
    Mono<Boolean> markDispatched(Collection<String> eventIds) {
        return db.sql("""
                        with done as (
                            update events set dispatched_at = now(), claimed_by = null, claimed_until = null
                            where id = any(:ids) and dispatched_at is null
                            returning payment_id, seq)
                        select exists (select 1 from done join events later on later.payment_id = done.payment_id
                                       and later.seq > done.seq and later.dispatched_at is null) as successors""")
                .bind("ids", eventIds.toArray(String[]::new))
                .map(row -> Boolean.TRUE.equals(row.get("successors", Boolean.class)))
                .one()
                .defaultIfEmpty(false);
    }

    /**
     * Only while this batch still holds the claim, so a late failure cannot disturb the instance that took over.
     * With `park`, the event becomes a dead letter (parked_at = now()) instead of getting a next attempt.
     */
    Mono<Void> markFailed(String eventId, UUID token, Duration backoff, String error, boolean park) {
        return db.sql("""
                        update events
                        set next_attempt_at = now() + make_interval(secs => :backoffSeconds), last_error = :error,
                            parked_at = case when :park then now() end,
                            claimed_by = null, claimed_until = null
                        where id = :id and claimed_by = :token and dispatched_at is null""")
                .bind("backoffSeconds", seconds(backoff))
                .bind("error", error)
                .bind("park", park)
                .bind("id", eventId)
                .bind("token", token)
                .then();
    }

    /**
     * Puts a parked event back in the queue, due at once, with its attempts reset (it gets max-attempts again).
     * Answers whether there was such a parked event.
     */
    Mono<Boolean> requeue(String eventId) {
        return db.sql("""
                        update events set parked_at = null, attempts = 0, next_attempt_at = null
                        where id = :id and parked_at is not null and dispatched_at is null""")
                .bind("id", eventId)
                .fetch()
                .rowsUpdated()
                .map(updated -> updated > 0);
    }

    /** Puts every parked event back in the queue, as {@link #requeue} does; answers how many. */
    Mono<Long> requeueAll() {
        return db.sql("update events set parked_at = null, attempts = 0, next_attempt_at = null"
                        + " where parked_at is not null and dispatched_at is null")
                .fetch()
                .rowsUpdated();
    }

    /** The oldest parked events first, at most `limit`. */
    Flux<ParkedEvent> parked(int limit) {
        return db.sql("""
                        select id, merchant_id, type, payment_id, attempts, last_error, created_at, parked_at
                        from events where dispatched_at is null and parked_at is not null
                        order by parked_at, seq limit :limit""")
                .bind("limit", limit)
                .map(row -> new ParkedEvent(row.get("id", String.class), row.get("merchant_id", String.class),
                        row.get("type", String.class), row.get("payment_id", String.class),
                        row.get("attempts", Integer.class), row.get("last_error", String.class),
                        row.get("created_at", Instant.class), row.get("parked_at", Instant.class)))
                .all();
    }

    /** Undispatched events still to be delivered, and parked ones, in one scan. */
    Mono<long[]> countUndispatchedAndParked() {
        return db.sql("""
                        select count(*) filter (where parked_at is null) as waiting,
                               count(*) filter (where parked_at is not null) as parked
                        from events where dispatched_at is null""")
                .map(row -> new long[] {row.get("waiting", Long.class), row.get("parked", Long.class)})
                .one();
    }

    private static double seconds(Duration duration) {
        return duration.toMillis() / 1000.0;
    }
}
