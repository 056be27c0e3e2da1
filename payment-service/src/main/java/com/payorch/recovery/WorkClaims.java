package com.payorch.recovery;

import com.payorch.jobs.ClaimTokens;
import com.payorch.jobs.ClaimedWork;
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
public class WorkClaims implements ClaimedWork {

    private final DatabaseClient db;
    private final UUID instance;

    public WorkClaims(DatabaseClient db, ClaimTokens tokens) {
        this.db = db;
        this.instance = tokens.next();
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

    @Override
    public String claimedWhat() {
        return "work items (recovery)";
    }

    /** A claim's row means nothing once its lease ran out, so releasing one is deleting it. */
    @Override
    public Mono<Long> releaseClaims(UUID lowest, UUID highest) {
        return db.sql("delete from work_claims where claimed_by between :lowest and :highest and claimed_until > now()")
                .bind("lowest", lowest)
                .bind("highest", highest)
                .fetch()
                .rowsUpdated();
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
