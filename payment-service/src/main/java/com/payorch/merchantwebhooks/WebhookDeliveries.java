package com.payorch.merchantwebhooks;

import com.payorch.events.Event;
import com.payorch.events.EventType;
import com.payorch.jobs.ClaimedWork;
import com.payorch.support.Ids;
import com.payorch.support.Page;
import com.payorch.support.PageRequest;
import com.payorch.support.UnknownCursor;
import io.r2dbc.postgresql.codec.Json;
import io.r2dbc.spi.Readable;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.r2dbc.core.Parameter;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.util.retry.Retry;

/** SQL for `webhook_deliveries`: planning, claiming, recording results, listing and redelivering. */
@Component
public class WebhookDeliveries implements ClaimedWork {

    /** A claimed attempt with the event it delivers. */
    record Claimed(Delivery delivery, Event event, Instant firstAttemptAt) {
    }

    private static final String COLUMNS = "d.id, d.event_id, d.merchant_id, d.attempt, d.status, d.response_status,"
            + " d.error, d.at";

    private final DatabaseClient db;

    public WebhookDeliveries(DatabaseClient db) {
        this.db = db;
    }

    /** Plans attempt 1 of the event, due now; a redelivered outbox event plans nothing more. */
    Mono<Void> plan(Event event) {
        return db.sql("""
                        insert into webhook_deliveries (id, event_id, merchant_id, attempt, status, due_at, at)
                        values (:id, :event, :merchant, 1, 'pending', now(), now())
                        on conflict (event_id, attempt) do nothing""")
                .bind("id", Ids.withPrefix("wd_"))
                .bind("event", event.id())
                .bind("merchant", event.merchantId())
                .then();
    }

    /**
     * Claims up to `limit` due attempts for `token` until now + `lease`: pending, due, and not claimed by a live
     * lease. SKIP LOCKED lets instances claim side by side without waiting for or taking each other's rows.
     */
    Flux<Claimed> claimDue(UUID token, Duration lease, int limit) {
        return db.sql("""
                        with due as (
                            select id from webhook_deliveries
                            where status = 'pending' and due_at <= now()
                              and (claimed_until is null or claimed_until < now())
                            order by due_at
                            limit :limit
                            for update skip locked),
                        claimed as (
                            update webhook_deliveries d
                            set claimed_by = :token, claimed_until = now() + make_interval(secs => :lease)
                            from due where d.id = due.id
                            returning d.*)
                        select d.id, d.event_id, d.merchant_id, d.attempt, d.status, d.response_status, d.error, d.at,
                               e.type, e.payment_id, e.booking_id, e.data, e.created_at as event_created_at,
                               (select min(f.at) from webhook_deliveries f where f.event_id = d.event_id and f.attempt = 1)
                                   as first_at
                        from claimed d join events e on e.id = d.event_id""")
                .bind("limit", limit)
                .bind("token", token)
                .bind("lease", lease.toMillis() / 1000.0)
                .map(row -> new Claimed(delivery(row), new Event(row.get("event_id", String.class),
                        row.get("merchant_id", String.class),
                        EventType.fromValue(row.get("type", String.class)).orElse(null),
                        row.get("payment_id", String.class), row.get("booking_id", String.class),
                        row.get("data", Json.class).asString(), row.get("event_created_at", Instant.class)),
                        row.get("first_at", Instant.class)))
                .all();
    }

    /**
     * Records the claimed attempt's result, fenced by the claim's token (a lost lease records nothing: the attempt
     * is then another instance's), and, when it failed and `nextDueInSeconds` is given, plans the next attempt unless
     * another is already pending. One statement: both or neither. Emits whether the result was recorded.
     */
    Mono<Boolean> record(Delivery delivery, UUID token, boolean succeeded, @Nullable Integer responseStatus,
                         @Nullable String error, @Nullable Double nextDueInSeconds) {
        return db.sql("""
                        with done as (
                            update webhook_deliveries
                            set status = :status, response_status = :responseStatus, error = :error, at = now(),
                                claimed_by = null, claimed_until = null
                            where id = :id and claimed_by = :token and status = 'pending'
                            returning event_id, merchant_id, attempt),
                        next as (
                            insert into webhook_deliveries (id, event_id, merchant_id, attempt, status, due_at, at)
                            select :nextId, event_id, merchant_id,
                                   (select max(attempt) + 1 from webhook_deliveries w where w.event_id = done.event_id),
                                   'pending', now() + make_interval(secs => :nextDue),
                                   now() + make_interval(secs => :nextDue)
                            from done
                            where cast(:nextDue as double precision) is not null
                              and not exists (select 1 from webhook_deliveries p where p.event_id = done.event_id
                                              and p.status = 'pending' and p.id <> :id))
                        select count(*) from done""")
                .bind("status", succeeded ? "succeeded" : "failed")
                .bind("responseStatus", Parameter.fromOrEmpty(responseStatus, Integer.class))
                .bind("error", Parameter.fromOrEmpty(error, String.class))
                .bind("id", delivery.id())
                .bind("token", token)
                .bind("nextId", Ids.withPrefix("wd_"))
                .bind("nextDue", Parameter.fromOrEmpty(nextDueInSeconds, Double.class))
                .map(row -> row.get(0, Long.class))
                .one()
                .map(count -> count == 1);
    }

    /** Queues one more attempt of the event, due now: the next attempt number. */
    public Mono<Delivery> redeliver(String merchantId, String eventId) {
        return db.sql("""
                        insert into webhook_deliveries as d (id, event_id, merchant_id, attempt, status, due_at, at)
                        values (:id, :event, :merchant,
                                coalesce((select max(attempt) from webhook_deliveries where event_id = :event), 0) + 1,
                                'pending', now(), now())
                        returning\s""" + COLUMNS)
                .bind("id", Ids.withPrefix("wd_"))
                .bind("event", eventId)
                .bind("merchant", merchantId)
                .map(WebhookDeliveries::delivery)
                .one()
                // two redeliveries at once may pick the same next number: the unique (event_id, attempt) refuses
                // one, which takes the number after
                .retryWhen(Retry.max(5).filter(e -> e instanceof DataIntegrityViolationException));
    }

    /** One page of an event's attempts, first attempt first; the cursor must be one of them. */
    public Mono<Page<Delivery>> list(String merchantId, String eventId, PageRequest page) {
        Mono<Integer> after = page.startingAfter() == null ? Mono.just(0)
                : db.sql("select attempt from webhook_deliveries where id = :id and event_id = :event"
                                + " and merchant_id = :merchant")
                        .bind("id", page.startingAfter())
                        .bind("event", eventId)
                        .bind("merchant", merchantId)
                        .map(row -> row.get(0, Integer.class))
                        .one()
                        .switchIfEmpty(Mono.error(() -> new UnknownCursor(page.startingAfter())));
        return after.flatMap(attempt -> db.sql("select " + COLUMNS + " from webhook_deliveries d"
                                + " where d.event_id = :event and d.merchant_id = :merchant and d.attempt > :after"
                                + " order by d.attempt limit :limit")
                        .bind("event", eventId)
                        .bind("merchant", merchantId)
                        .bind("after", attempt)
                        .bind("limit", page.limit() + 1)
                        .map(WebhookDeliveries::delivery)
                        .all()
                        .collectList()
                        .map(rows -> Page.of(rows, page.limit())));
    }

    /** Seconds since the oldest event that still has a pending attempt was created (0 when none). */
    Mono<Double> oldestUndeliveredSeconds() {
        return db.sql("""
                        select coalesce(extract(epoch from now() - min(e.created_at)), 0)::float8
                        from webhook_deliveries d join events e on e.id = d.event_id
                        where d.status = 'pending'""")
                .map(row -> row.get(0, Double.class))
                .one();
    }

    private static Delivery delivery(Readable row) {
        return new Delivery(row.get("id", String.class), row.get("event_id", String.class),
                row.get("merchant_id", String.class), row.get("attempt", Integer.class),
                row.get("status", String.class), row.get("response_status", Integer.class),
                row.get("error", String.class), row.get("at", Instant.class));
    }

    @Override
    public String claimedWhat() {
        return "merchant webhook attempts";
    }

    /** The attempt stays pending and due: a send cut short by a shutdown may reach the merchant twice (at least once). */
    @Override
    public Mono<Long> releaseClaims(UUID lowest, UUID highest) {
        return db.sql("""
                        update webhook_deliveries set claimed_by = null, claimed_until = null
                        where status = 'pending' and claimed_by between :lowest and :highest
                          and claimed_until > now()""")
                .bind("lowest", lowest)
                .bind("highest", highest)
                .fetch()
                .rowsUpdated();
    }
}
