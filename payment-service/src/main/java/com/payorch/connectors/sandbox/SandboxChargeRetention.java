package com.payorch.connectors.sandbox;

import com.payorch.statemachine.PaymentStatus;
import com.payorch.support.SqlLiterals;
import java.time.Duration;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Forgets sandbox charges `retention` after they were made, once nothing can still need them: settled, webhooks
 * delivered or given up (or never owed), and their payment no longer waiting for the gateway (a PENDING or
 * PROCESSING payment is resubmitted or reconciled with this charge; forgetting it would let a resubmission charge
 * again). Ages are judged with the database clock.
 */
@Component
class SandboxChargeRetention {

    /** The payments a charge may still be needed for: resubmitted or reconciled with it. */
    private static final String AWAITING_THE_GATEWAY = SqlLiterals.in(PaymentStatus.UNSETTLED);

    private final DatabaseClient db;

    SandboxChargeRetention(DatabaseClient db) {
        this.db = db;
    }

    /** Deletes up to `batchSize` such charges, oldest first; answers how many went. */
    Mono<Long> deleteOlderThan(Duration retention, int batchSize) {
        return db.sql("""
                        delete from sandbox_charges
                        where ctid = any(array(
                                  select c.ctid from sandbox_charges c
                                  where c.status not in ('processing', 'requires_action')
                                    and c.created_at < now() - make_interval(secs => :retentionSeconds)
                                    and (not c.webhooks_due or c.webhooks_finished_at is not null)
                                    and not exists (select 1 from payments p
                                                    where p.id = c.payment_id
                                                      and p.status in %s)
                                  order by c.created_at
                                  limit :batch))
                          and status not in ('processing', 'requires_action')
                          and created_at < now() - make_interval(secs => :retentionSeconds)
                          and (not webhooks_due or webhooks_finished_at is not null)""".formatted(
                        AWAITING_THE_GATEWAY))
                .bind("retentionSeconds", (double) retention.toSeconds())
                .bind("batch", batchSize)
                .fetch().rowsUpdated();
    }
}
