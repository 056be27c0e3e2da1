package com.payorch.webhooks;

import java.time.Duration;
import java.time.Instant;
import org.jspecify.annotations.Nullable;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.r2dbc.core.Parameter;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/** The table of webhooks received; its primary key on the webhook id is what applies each one at most once. */
@Component
public class WebhookReceipts {

    private final DatabaseClient db;

    public WebhookReceipts(DatabaseClient db) {
        this.db = db;
    }

    /**
     * Records the webhook inside the caller's transaction; answers false when the id is already recorded, and then
     * counts the duplicate on the first receipt (for the operations console). A racing redelivery waits here until
     * the first one's transaction ends, then sees it. {@code xmax = 0} only for a row this statement inserted.
     * {@code paymentId} is null for a notification about no payment of this service (answered "ignored").
     */
    public Mono<Boolean> claim(String webhookId, String gateway, String type, @Nullable String paymentId, Instant at) {
        return db.sql("""
                        insert into webhook_receipts (webhook_id, gateway, type, payment_id, outcome, received_at)
                        values (:id, :gateway, :type, :payment, 'ignored', :at)
                        on conflict (webhook_id) do update
                            set duplicates = webhook_receipts.duplicates + 1, last_duplicate_at = excluded.received_at
                        returning (xmax = 0) as inserted""")
                .bind("id", webhookId)
                .bind("gateway", gateway)
                .bind("type", type)
                .bind("payment", Parameter.fromOrEmpty(paymentId, String.class))
                .bind("at", at)
                .map(row -> Boolean.TRUE.equals(row.get("inserted", Boolean.class)))
                .one()
                .defaultIfEmpty(false);
    }

    public Mono<Void> recordOutcome(String webhookId, WebhookOutcome outcome, String detail) {
        return db.sql("update webhook_receipts set outcome = :outcome, detail = :detail where webhook_id = :id")
                .bind("outcome", outcome.value())
                .bind("detail", Parameter.fromOrEmpty(detail, String.class))
                .bind("id", webhookId)
                .then();
    }

    /** Deletes up to `batchSize` receipts received more than `retention` ago (database clock); answers how many. */
    public Mono<Long> deleteOlderThan(Duration retention, int batchSize) {
        return db.sql("""
                        delete from webhook_receipts
                        where ctid = any(array(
                                  select ctid from webhook_receipts
                                  where received_at < now() - make_interval(secs => :retentionSeconds)
                                  order by received_at
                                  limit :batch))
                          and received_at < now() - make_interval(secs => :retentionSeconds)""")
                .bind("retentionSeconds", (double) retention.toSeconds())
                .bind("batch", batchSize)
                .fetch().rowsUpdated();
    }
}
