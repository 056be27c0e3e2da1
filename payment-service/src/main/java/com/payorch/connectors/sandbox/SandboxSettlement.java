package com.payorch.connectors.sandbox;

import com.payorch.support.Timestamps;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * The sandbox's "bank": `webhook-delay` after a charge was made it settles it, `pm_card_declined` as failed with
 * `card_declined`, any other token as succeeded (a manual-capture charge as authorised); `webhook-delay` after a
 * capture was requested it settles that too. Runs in every instance whatever `webhooks` says, so asking the
 * gateway later finds the outcome. One UPDATE claims and settles each charge, skipping rows another instance holds:
 * several instances on one database settle each charge exactly once, and a restart finds the rest still due.
 */
@Component
public class SandboxSettlement {

    static final String DECLINED_TOKEN = "pm_card_declined";
    static final String REFUND_FAILS_TOKEN = "pm_card_refund_fails";
    static final String CAPTURE_FAILS_TOKEN = "pm_card_capture_fails";
    private static final int BATCH = 100;
    private static final Logger log = LoggerFactory.getLogger(SandboxSettlement.class);

    private final DatabaseClient db;
    private final Clock clock;
    private final SandboxGatewayProperties properties;

    public SandboxSettlement(DatabaseClient db, Clock clock, SandboxGatewayProperties properties) {
        this.db = db;
        this.clock = clock;
        this.properties = properties;
    }

    /**
     * One run of the job ({@link SandboxJobs}, every `poll-interval`): batch after batch while they come back full,
     * charges then refunds; emits how many it settled. Never fails, a failure is logged.
     */
    public Mono<Long> settleDueChargesQuietly() {
        return Mono.defer(() -> untilShort(this::settleDueCharges)
                        .zipWith(untilShort(this::settleDueCaptures), Long::sum)
                        .zipWith(untilShort(this::settleDueRefunds), Long::sum))
                .onErrorResume(e -> {
            log.warn("Sandbox settlement failed; the next run tries again: {}", e.toString());
            return Mono.just(0L);
        });
    }

    private static Mono<Long> untilShort(java.util.function.Supplier<Mono<Long>> batch) {
        return Mono.defer(batch).expand(settled -> settled >= BATCH ? Mono.defer(batch) : Mono.empty())
                .reduce(0L, Long::sum);
    }

    /**
     * How long until the earliest charge or refund still waiting is due (zero when one is due already); empty when
     * none waits. The job wakes itself then, instead of at its next poll.
     */
    public Mono<Duration> nextDueIn() {
        return db.sql("""
                        select least((select min(created_at) from sandbox_charges where status = 'processing'),
                                     (select min(capture_requested_at) from sandbox_charges
                                      where status = 'capturing'),
                                     (select min(created_at) from sandbox_refunds where status = 'pending')) as first""")
                .map(row -> java.util.Optional.ofNullable(row.get("first", Instant.class)))
                .one()
                .flatMap(first -> Mono.justOrEmpty(first))
                .map(first -> {
                    Duration left = Duration.between(Timestamps.now(clock), first.plus(properties.webhookDelay()));
                    return left.isNegative() ? Duration.ZERO : left;
                });
    }

    /** Settles up to one batch of charges that are due; emits how many this call settled. */
    public Mono<Long> settleDueCharges() {
        Instant now = Timestamps.now(clock);
        // created_at was written with the service clock, so "due" is judged with it too.
        return db.sql("""
                        update sandbox_charges
                        set status = case when payment_method = :declined then 'failed'
                                          when capture_method = 'manual' then 'authorized' else 'succeeded' end,
                            failure_reason = case when payment_method = :declined then 'card_declined' end,
                            updated_at = :now
                        where status = 'processing'
                          and id in (select id from sandbox_charges
                                     where status = 'processing' and created_at <= :dueBefore
                                     order by created_at
                                     limit :batch
                                     for update skip locked)
                        returning id, payment_id, status""")
                .bind("declined", DECLINED_TOKEN)
                .bind("now", now)
                .bind("dueBefore", now.minus(properties.webhookDelay()))
                .bind("batch", BATCH)
                .map(row -> {
                    log.debug("Sandbox settled charge {} of payment {}: {}", row.get("id", String.class),
                            row.get("payment_id", String.class), row.get("status", String.class));
                    return 1L;
                })
                .all()
                .count();
    }

    /**
     * Settles up to one batch of captures that are due (`webhook-delay` after they were requested): those of a charge
     * made with `pm_card_capture_fails` fail with `capture_declined` (the hold stays), the others take the capture's
     * amount. Emits how many this call settled.
     */
    public Mono<Long> settleDueCaptures() {
        Instant now = Timestamps.now(clock);
        return db.sql("""
                        update sandbox_charges
                        set status = case when payment_method = :fails then 'capture_failed' else 'succeeded' end,
                            failure_reason = case when payment_method = :fails then 'capture_declined' end,
                            amount_captured = case when payment_method = :fails then null else capture_amount end,
                            updated_at = :now, webhooks_finished_at = null, webhooks_leased_until = null
                        where status = 'capturing'
                          and id in (select id from sandbox_charges
                                     where status = 'capturing' and capture_requested_at <= :dueBefore
                                     order by capture_requested_at
                                     limit :batch
                                     for update skip locked)
                        returning id""")
                .bind("fails", CAPTURE_FAILS_TOKEN)
                .bind("now", now)
                .bind("dueBefore", now.minus(properties.webhookDelay()))
                .bind("batch", BATCH)
                .map(row -> 1L)
                .all()
                .count();
    }

    /**
     * Settles up to one batch of refunds that are due (`webhook-delay` after they were made): those of a charge made
     * with `pm_card_refund_fails` fail with `refund_declined`, the others succeed. Emits how many this call settled.
     */
    public Mono<Long> settleDueRefunds() {
        Instant now = Timestamps.now(clock);
        return db.sql("""
                        update sandbox_refunds
                        set status = case when payment_method = :fails then 'failed' else 'succeeded' end,
                            failure_reason = case when payment_method = :fails then 'refund_declined' end,
                            updated_at = :now
                        where status = 'pending'
                          and id in (select id from sandbox_refunds
                                     where status = 'pending' and created_at <= :dueBefore
                                     order by created_at
                                     limit :batch
                                     for update skip locked)
                        returning id""")
                .bind("fails", REFUND_FAILS_TOKEN)
                .bind("now", now)
                .bind("dueBefore", now.minus(properties.webhookDelay()))
                .bind("batch", BATCH)
                .map(row -> 1L)
                .all()
                .count();
    }
}
