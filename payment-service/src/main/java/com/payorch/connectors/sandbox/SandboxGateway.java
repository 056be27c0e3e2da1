package com.payorch.connectors.sandbox;

import com.payorch.gateway.ChargeRequest;
import com.payorch.gateway.ConnectorRefusedException;
import com.payorch.gateway.GatewayOutcome;
import com.payorch.gateway.GatewayStatus;
import com.payorch.gateway.GatewayUnavailableException;
import com.payorch.gateway.PaymentGateway;
import com.payorch.gateway.RefundOutcome;
import com.payorch.gateway.RefundRequest;
import com.payorch.support.Ids;
import com.payorch.support.Timestamps;
import io.r2dbc.spi.Readable;
import java.time.Clock;
import java.time.Instant;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The built-in gateway. Its charges live in their own table, one per payment attempt, so a resubmission from any
 * service instance finds the charge already made. Tokens: `pm_card_unavailable` fails the submit as a network error
 * would; any other token is charged and stays `processing` until {@link SandboxSettlement} settles it. Refunds
 * live in `sandbox_refunds`, one per refund id, and are settled the same way (those of a payment made with
 * `pm_card_refund_fails` fail with `refund_declined`).
 */
@Component
public class SandboxGateway implements PaymentGateway {

    public static final String NAME = "sandbox";
    static final String UNAVAILABLE_TOKEN = "pm_card_unavailable";

    private final DatabaseClient db;
    private final Clock clock;
    private final boolean deliversWebhooks;

    public SandboxGateway(DatabaseClient db, Clock clock, SandboxGatewayProperties properties) {
        this.db = db;
        this.clock = clock;
        this.deliversWebhooks = properties.webhooks() == WebhookMode.AUTO;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Mono<GatewayOutcome> submit(ChargeRequest request) {
        if (UNAVAILABLE_TOKEN.equals(request.paymentMethod())) {
            return Mono.error(new GatewayUnavailableException("sandbox gateway unreachable for " + request.paymentId()));
        }
        return Mono.defer(() -> chargeOnce(request))
                // Empty only when a concurrent submit of the same attempt committed the charge during this statement.
                .switchIfEmpty(Mono.defer(() -> charge(request.paymentId(), request.attempt())))
                .map(SandboxCharge::outcome);
    }

    @Override
    public Mono<GatewayOutcome> find(ChargeRequest request) {
        return charge(request.paymentId(), request.attempt()).map(SandboxCharge::outcome);
    }

    /**
     * Creates the refund (one per refund id, whichever instance sends it) of a charge that was not declined, or finds
     * the one already there; it stays pending until {@link SandboxSettlement} settles it. A charge the sandbox does
     * not hold (or holds as declined) is a definite refusal: nothing was refunded.
     */
    @Override
    public Mono<RefundOutcome> refund(RefundRequest request) {
        Instant now = Timestamps.now(clock);
        return Mono.defer(() -> db.sql("""
                        with inserted as (
                            insert into sandbox_refunds (id, refund_id, charge_id, payment_id, amount, currency,
                                payment_method, status, created_at, updated_at, webhooks_due)
                            select :id, :refund, c.id, c.payment_id, :amount, c.currency, c.payment_method, 'pending',
                                   :now, :now, :webhooks
                            from sandbox_charges c
                            where c.id = :charge and c.status <> 'failed' and c.currency = :currency
                            on conflict (refund_id) do nothing
                            returning id, refund_id, status, failure_reason)
                        select * from inserted
                        union all
                        select id, refund_id, status, failure_reason from sandbox_refunds
                        where refund_id = :refund and not exists (select 1 from inserted)""")
                        .bind("id", Ids.withPrefix("rf_"))
                        .bind("refund", request.refundId())
                        .bind("amount", request.amount())
                        .bind("currency", request.currency())
                        .bind("now", now)
                        .bind("webhooks", deliversWebhooks)
                        .bind("charge", request.chargeReference() == null ? "" : request.chargeReference())
                        .map(SandboxGateway::refundOutcome)
                        .one())
                .switchIfEmpty(Mono.defer(() -> findRefund(request)))
                .switchIfEmpty(Mono.error(() -> new ConnectorRefusedException("the sandbox holds no charge "
                        + request.chargeReference() + " in " + request.currency() + " that it could refund")));
    }

    @Override
    public Mono<RefundOutcome> findRefund(RefundRequest request) {
        return db.sql("select id, refund_id, status, failure_reason from sandbox_refunds where refund_id = :refund")
                .bind("refund", request.refundId())
                .map(SandboxGateway::refundOutcome)
                .one();
    }

    private static RefundOutcome refundOutcome(Readable row) {
        GatewayStatus status = switch (row.get("status", String.class)) {
            case "succeeded" -> GatewayStatus.SUCCEEDED;
            case "failed" -> GatewayStatus.FAILED;
            default -> GatewayStatus.PROCESSING;
        };
        return new RefundOutcome(row.get("refund_id", String.class), NAME, row.get("id", String.class), status,
                row.get("failure_reason", String.class));
    }

    /** The charge made for this payment attempt, if any. */
    public Mono<SandboxCharge> charge(String paymentId, int attempt) {
        return db.sql("""
                        select id, payment_id, attempt, amount, currency, status, failure_reason
                        from sandbox_charges where payment_id = :payment and attempt = :attempt""")
                .bind("payment", paymentId)
                .bind("attempt", attempt)
                .map(SandboxGateway::charge)
                .one();
    }

    /** The charge with this id, if the sandbox made it. */
    public Mono<SandboxCharge> chargeById(String chargeId) {
        return db.sql("""
                        select id, payment_id, attempt, amount, currency, status, failure_reason
                        from sandbox_charges where id = :id""")
                .bind("id", chargeId)
                .map(SandboxGateway::charge)
                .one();
    }

    /** Every charge the sandbox holds for a payment, oldest attempt first. */
    public Flux<SandboxCharge> chargesFor(String paymentId) {
        return db.sql("""
                        select id, payment_id, attempt, amount, currency, status, failure_reason
                        from sandbox_charges where payment_id = :payment order by attempt""")
                .bind("payment", paymentId)
                .map(SandboxGateway::charge)
                .all();
    }

    /** Creates the attempt's charge, or finds the one already there, in one round trip. */
    private Mono<SandboxCharge> chargeOnce(ChargeRequest request) {
        Instant now = Timestamps.now(clock);
        return db.sql("""
                        with inserted as (
                            insert into sandbox_charges (id, payment_id, attempt, amount, currency, payment_method,
                                status, created_at, updated_at, webhooks_due)
                            values (:id, :payment, :attempt, :amount, :currency, :method, 'processing', :now, :now,
                                :webhooks)
                            on conflict (payment_id, attempt) do nothing
                            returning id, payment_id, attempt, amount, currency, status, failure_reason)
                        select * from inserted
                        union all
                        select id, payment_id, attempt, amount, currency, status, failure_reason
                        from sandbox_charges
                        where payment_id = :payment and attempt = :attempt and not exists (select 1 from inserted)""")
                .bind("id", Ids.charge())
                .bind("payment", request.paymentId())
                .bind("attempt", request.attempt())
                .bind("amount", request.amount())
                .bind("currency", request.currency())
                .bind("method", request.paymentMethod())
                .bind("now", now)
                .bind("webhooks", deliversWebhooks)
                .map(SandboxGateway::charge)
                .one();
    }

    private static SandboxCharge charge(Readable row) {
        return new SandboxCharge(row.get("id", String.class), row.get("payment_id", String.class),
                row.get("attempt", Integer.class), row.get("amount", Long.class), row.get("currency", String.class),
                row.get("status", String.class), row.get("failure_reason", String.class));
    }
}
