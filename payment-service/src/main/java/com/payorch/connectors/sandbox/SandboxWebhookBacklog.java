package com.payorch.connectors.sandbox;

import java.time.Duration;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Settled charges whose webhooks are still owed, kept in `sandbox_charges` (V5). An instance leases the charges it
 * delivers, using the database clock so all instances agree; a lease that runs out (its instance died) makes the
 * charge due again. Leases are taken with SKIP LOCKED, so two instances never take the same charge at once.
 */
@Component
class SandboxWebhookBacklog {

    enum Outcome { DELIVERED, GAVE_UP }

    /** A leased charge and the token it was made with (some tokens have webhooks of their own). */
    record Leased(SandboxCharge charge, String paymentMethod) {
    }

    private final DatabaseClient db;

    SandboxWebhookBacklog(DatabaseClient db) {
        this.db = db;
    }

    /** Leases up to `limit` charges whose webhooks are due, oldest settlement first. */
    Flux<Leased> lease(int limit, Duration leaseFor) {
        return db.sql("""
                        update sandbox_charges
                        set webhooks_leased_until = now() + make_interval(secs => :leaseSeconds)
                        where id in (select id from sandbox_charges
                                     where webhooks_due and webhooks_finished_at is null
                                       and status not in ('processing', 'requires_action', 'capturing')
                                       and (webhooks_leased_until is null or webhooks_leased_until < now())
                                     order by updated_at
                                     limit :limit
                                     for update skip locked)
                        returning payment_method,\s""" + SandboxCharge.COLUMNS)
                .bind("leaseSeconds", (double) leaseFor.toMillis() / 1000)
                .bind("limit", limit)
                .map(row -> new Leased(SandboxCharge.of(row), row.get("payment_method", String.class)))
                .all();
    }

    /** Leases up to `limit` settled refunds whose webhook is due, as {@link #lease} does for charges. */
    Flux<SandboxRefund> leaseRefunds(int limit, Duration leaseFor) {
        return db.sql("""
                        update sandbox_refunds
                        set webhooks_leased_until = now() + make_interval(secs => :leaseSeconds)
                        where id in (select id from sandbox_refunds
                                     where webhooks_due and webhooks_finished_at is null and status <> 'pending'
                                       and (webhooks_leased_until is null or webhooks_leased_until < now())
                                     order by updated_at
                                     limit :limit
                                     for update skip locked)
                        returning id, refund_id, charge_id, payment_id, amount, currency, status, failure_reason""")
                .bind("leaseSeconds", (double) leaseFor.toMillis() / 1000)
                .bind("limit", limit)
                .map(row -> new SandboxRefund(row.get("id", String.class), row.get("refund_id", String.class),
                        row.get("charge_id", String.class), row.get("payment_id", String.class),
                        row.get("amount", Long.class), row.get("currency", String.class),
                        row.get("status", String.class), row.get("failure_reason", String.class)))
                .all();
    }

    Mono<Void> finishRefund(String sandboxRefundId, Outcome outcome) {
        return db.sql("""
                        update sandbox_refunds
                        set webhooks_finished_at = now(), webhooks_outcome = :outcome, webhooks_leased_until = null
                        where id = :id""")
                .bind("outcome", outcome.name().toLowerCase())
                .bind("id", sandboxRefundId)
                .then();
    }

    /**
     * Records the webhooks of {@code delivered}'s state as done, unless the charge moved on meanwhile (a hold captured
     * or released while its authorisation was being announced): then the lease is given back and the webhooks of its
     * new state go out with the next poll.
     */
    Mono<Void> finish(SandboxCharge delivered, Outcome outcome) {
        return db.sql("""
                        update sandbox_charges
                        set webhooks_finished_at = case when status = :status and captures = :captures then now() end,
                            webhooks_outcome = :outcome, webhooks_leased_until = null
                        where id = :id""")
                .bind("outcome", outcome.name().toLowerCase())
                .bind("status", delivered.status())
                .bind("captures", delivered.captures())
                .bind("id", delivered.id())
                .then();
    }
}
