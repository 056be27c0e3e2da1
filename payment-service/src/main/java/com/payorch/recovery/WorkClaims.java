package com.payorch.recovery;

import java.time.Duration;
import java.util.UUID;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Leases on background work items, held in PostgreSQL so that several service instances never work on the same
 * payment at once; a lease that runs out (its holder died) frees the item for the next look.
 */
@Component
public class WorkClaims {

    private final DatabaseClient db;
    private final UUID instance = UUID.randomUUID();

    public WorkClaims(DatabaseClient db) {
        this.db = db;
    }

    /** True when this instance now holds the item for `lease`. */
    public Mono<Boolean> claim(String kind, String itemId, Duration lease) {
        return db.sql("""
                        insert into work_claims (kind, item_id, claimed_by, claimed_until)
                        values (:kind, :item, :me, now() + make_interval(secs => :seconds))
                        on conflict (kind, item_id) do update
                            set claimed_by = excluded.claimed_by, claimed_until = excluded.claimed_until
                            where work_claims.claimed_until < now()
                        returning 1""")
                .bind("kind", kind)
                .bind("item", itemId)
                .bind("me", instance)
                .bind("seconds", lease.toMillis() / 1000.0)
                .map(row -> true)
                .one()
                .defaultIfEmpty(false);
    }

    /**
     * Deletes up to `batchSize` claims whose lease ran out more than `retention` ago (database clock). A run-out
     * claim means the same as no row, so this changes no decision; it only keeps the table small.
     */
    public Mono<Long> deleteExpired(Duration retention, int batchSize) {
        return db.sql("""
                        delete from work_claims
                        where ctid = any(array(
                                  select ctid from work_claims
                                  where claimed_until < now() - make_interval(secs => :retentionSeconds)
                                  order by claimed_until
                                  limit :batch))
                          and claimed_until < now() - make_interval(secs => :retentionSeconds)""")
                .bind("retentionSeconds", (double) retention.toSeconds())
                .bind("batch", batchSize)
                .fetch().rowsUpdated();
    }
}
