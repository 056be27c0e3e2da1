package com.payorch.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.springframework.r2dbc.core.DatabaseClient;

/**
 * A payment's refunds and disputes in the order the payment row's lock decided them: the outbox's sequence (each
 * writes its event under that lock). A dispute is never refused, so only a refund decided after it is held to what
 * it left.
 */
public final class DecisionOrder {

    /**
     * @param reserved the refunds' amounts ({@code refund.created})
     * @param disputed the disputes' amounts ({@code dispute.opened})
     * @param refundsAfterADispute refunds granted while a dispute held money
     */
    public record Replayed(long reserved, long disputed, int refundsAfterADispute) {
    }

    private DecisionOrder() {
    }

    /** Replays the payment's {@code refund.created} and {@code dispute.opened}, asserting every refund fit. */
    public static Replayed assertEveryRefundFit(DatabaseClient db, String paymentId, long captured) {
        List<Map<String, Object>> ordered = db.sql("select type, (data->>'amount')::bigint as amount from events"
                        + " where payment_id = $1 and type in ('refund.created', 'dispute.opened') order by seq")
                .bind(0, paymentId)
                .fetch().all().collectList().block(Duration.ofSeconds(30));
        long reserved = 0;
        long disputed = 0;
        int afterADispute = 0;
        for (Map<String, Object> event : ordered) {
            long amount = ((Number) event.get("amount")).longValue();
            if ("dispute.opened".equals(event.get("type"))) {
                disputed += amount;
            } else {
                reserved += amount;
                afterADispute += disputed > 0 ? 1 : 0;
                assertThat(reserved + disputed).as("refunded + disputed when a refund was granted: %s", ordered)
                        .isLessThanOrEqualTo(captured);
            }
        }
        return new Replayed(reserved, disputed, afterADispute);
    }
}
