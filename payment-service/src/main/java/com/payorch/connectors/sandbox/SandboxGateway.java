package com.payorch.connectors.sandbox;

import com.payorch.gateway.CancelRequest;
import com.payorch.gateway.CaptureRequest;
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
import org.springframework.r2dbc.core.Parameter;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The built-in gateway. Its charges live in their own table, one per payment attempt, so a resubmission from any
 * service instance finds the charge already made. Tokens: `pm_card_unavailable` fails the submit as a network error
 * would; any other token is charged and stays `processing` until {@link SandboxSettlement} settles it. Refunds
 * live in `sandbox_refunds`, one per refund id, and are settled the same way (those of a payment made with
 * `pm_card_refund_fails` fail with `refund_declined`). A manual-capture charge is authorised when it settles, then
 * captured (settled the same way; `pm_card_capture_fails` fails its captures) or released.
 * <p>3-D Secure: `pm_card_3ds` and `pm_card_3ds_declined` submitted with a return URL make a charge that waits in
 * `requires_action` for the customer on the sandbox's page ({@link SandboxCustomerAction}); the answer is
 * REQUIRES_ACTION with that page. Without a return URL the customer cannot act: the charge fails at once with
 * `authentication_required` (nothing taken). A waiting charge can be cancelled ({@link #cancel},
 * {@link #cancelByReference}).
 */
@Component
public class SandboxGateway implements PaymentGateway {

    public static final String NAME = "sandbox";
    static final String UNAVAILABLE_TOKEN = "pm_card_unavailable";

    private final DatabaseClient db;
    private final Clock clock;
    private final boolean deliversWebhooks;
    private final SandboxOwnAddress address;

    public SandboxGateway(DatabaseClient db, Clock clock, SandboxGatewayProperties properties,
                          SandboxOwnAddress address) {
        this.db = db;
        this.clock = clock;
        this.deliversWebhooks = properties.webhooks() == WebhookMode.AUTO;
        this.address = address;
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
                .map(this::answer);
    }

    @Override
    public Mono<GatewayOutcome> find(ChargeRequest request) {
        return charge(request.paymentId(), request.attempt()).map(this::answer);
    }

    /** The charge's state in the port's words; a charge waiting for its customer names the page they go to. */
    private GatewayOutcome answer(SandboxCharge charge) {
        return charge.waitingForCustomer()
                ? GatewayOutcome.requiresAction(charge.paymentId(), charge.attempt(), NAME, charge.id(),
                        address.authenticationPage(charge.id()))
                : charge.outcome();
    }

    /**
     * Cancels the attempt's charge only while it waits for its customer (the sandbox has no other use for a cancel
     * by reference); anything else is refused, as before there was a page to wait on.
     */
    @Override
    public Mono<Void> cancelByReference(ChargeRequest request) {
        return Mono.defer(() -> db.sql("""
                        update sandbox_charges
                        set status = 'cancelled', updated_at = :now, webhooks_finished_at = null,
                            webhooks_leased_until = null
                        where payment_id = :payment and attempt = :attempt and status = 'requires_action'
                        returning id""")
                        .bind("now", Timestamps.now(clock))
                        .bind("payment", request.paymentId())
                        .bind("attempt", request.attempt())
                        .map(row -> row.get("id", String.class))
                        .one())
                .switchIfEmpty(Mono.error(() -> new ConnectorRefusedException("the sandbox holds no charge waiting"
                        + " for its customer for " + request.idempotencyKey())))
                .then();
    }

    /**
     * Requests the capture of an authorised hold: the charge becomes `capturing` under the capture's key and settles
     * `webhook-delay` later ({@link SandboxSettlement}; `pm_card_capture_fails` then fails it). The same key again
     * answers the same capture; another key while one is in flight or done is refused, as is a hold released.
     */
    @Override
    public Mono<GatewayOutcome> capture(CaptureRequest request) {
        ChargeRequest charge = request.charge();
        Instant now = Timestamps.now(clock);
        return Mono.defer(() -> db.sql("""
                        update sandbox_charges
                        set status = 'capturing', capture_key = :key, capture_amount = :amount, captures = captures + 1,
                            capture_requested_at = :now, failure_reason = null, updated_at = :now,
                            webhooks_finished_at = null, webhooks_leased_until = null
                        where payment_id = :payment and attempt = :attempt and capture_method = 'manual'
                          and status in ('authorized', 'capture_failed') and :amount <= amount
                          and capture_key is distinct from :key
                        returning\s""" + SandboxCharge.COLUMNS)
                        .bind("key", request.idempotencyKey())
                        .bind("amount", request.amount())
                        .bind("now", now)
                        .bind("payment", charge.paymentId())
                        .bind("attempt", charge.attempt())
                        .map(SandboxCharge::of)
                        .one())
                .map(captured -> new GatewayOutcome(captured.paymentId(), captured.attempt(), NAME, captured.id(),
                        GatewayStatus.PROCESSING, null))
                .switchIfEmpty(Mono.defer(() -> sameCapture(request)));
    }

    /** A capture sent again under its key: what became of it. */
    private Mono<GatewayOutcome> sameCapture(CaptureRequest request) {
        return db.sql("select " + SandboxCharge.COLUMNS + ", capture_key from sandbox_charges"
                        + " where payment_id = :payment and attempt = :attempt")
                .bind("payment", request.charge().paymentId())
                .bind("attempt", request.charge().attempt())
                .map(row -> java.util.Map.entry(SandboxCharge.of(row),
                        java.util.Optional.ofNullable(row.get("capture_key", String.class))))
                .one()
                .switchIfEmpty(Mono.error(() -> new ConnectorRefusedException("the sandbox holds no charge for "
                        + request.charge().idempotencyKey())))
                .flatMap(found -> {
                    SandboxCharge held = found.getKey();
                    if (!found.getValue().map(request.idempotencyKey()::equals).orElse(false)) {
                        return Mono.error(new ConnectorRefusedException("charge " + held.id() + " is " + held.status()
                                + ": the sandbox cannot capture it"));
                    }
                    GatewayStatus status = switch (held.status()) {
                        case "succeeded" -> GatewayStatus.SUCCEEDED;
                        case "capture_failed" -> GatewayStatus.CAPTURE_FAILED;
                        default -> GatewayStatus.PROCESSING;
                    };
                    return Mono.just(new GatewayOutcome(held.paymentId(), held.attempt(), NAME, held.id(), status,
                            status == GatewayStatus.CAPTURE_FAILED ? held.failureReason() : null));
                });
    }

    /**
     * Releases a hold (or cancels a manual charge not yet authorised, or not made yet: a submit of the attempt that
     * arrives later finds it cancelled, as a cancel by reference does at a PSP): `cancelled` at once, its webhook
     * follows. A hold released already answers the same; a charge captured (or not a hold) is refused.
     */
    @Override
    public Mono<GatewayOutcome> cancel(CancelRequest request) {
        ChargeRequest charge = request.charge();
        Instant now = Timestamps.now(clock);
        return Mono.defer(() -> db.sql("""
                        insert into sandbox_charges as c (id, payment_id, attempt, amount, currency, payment_method,
                            status, created_at, updated_at, webhooks_due, capture_method)
                        values (:id, :payment, :attempt, :amount, :currency, :method, 'cancelled', :now, :now,
                            :webhooks, 'manual')
                        on conflict (payment_id, attempt) do update
                        set status = 'cancelled', updated_at = :now, webhooks_finished_at = null,
                            webhooks_leased_until = null
                        where (c.capture_method = 'manual' and c.status in ('processing', 'authorized', 'capture_failed'))
                           or c.status = 'requires_action'
                        returning\s""" + SandboxCharge.COLUMNS)
                        .bind("id", Ids.charge())
                        .bind("payment", charge.paymentId())
                        .bind("attempt", charge.attempt())
                        .bind("amount", charge.amount())
                        .bind("currency", charge.currency())
                        .bind("method", charge.paymentMethod())
                        .bind("now", now)
                        .bind("webhooks", deliversWebhooks)
                        .map(SandboxCharge::of)
                        .one())
                .switchIfEmpty(Mono.defer(() -> charge(charge.paymentId(), charge.attempt())))
                .flatMap(held -> "cancelled".equals(held.status()) ? Mono.just(answer(held))
                        : Mono.error(new ConnectorRefusedException("charge " + held.id() + " is " + held.status()
                                + ": the sandbox cannot release it")));
    }

    /**
     * Creates the refund (one per refund id, whichever instance sends it) of a charge that was not declined, or finds
     * the one already there; it stays pending until {@link SandboxSettlement} settles it. A charge the sandbox does
     * not hold (or holds as declined) is a definite refusal: nothing was refunded.
     */
    @Override
    public Mono<RefundOutcome> refund(RefundRequest request) {
        Instant now = Timestamps.now(clock);
        Mono<Void> released = request.orphanedCharge() ? releaseIfHeld(request, now) : Mono.empty();
        return released.then(Mono.defer(() -> db.sql("""
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
                        .one()))
                .switchIfEmpty(Mono.defer(() -> findRefund(request)))
                .switchIfEmpty(Mono.error(() -> new ConnectorRefusedException("the sandbox holds no charge "
                        + request.chargeReference() + " in " + request.currency() + " that it could refund")));
    }

    /**
     * An orphaned hold is given back by releasing it (nothing was taken to refund): the charge becomes `cancelled`
     * before the refund row is written, so the row records the give-back and settles like any refund.
     */
    private Mono<Void> releaseIfHeld(RefundRequest request, Instant now) {
        return db.sql("""
                        update sandbox_charges
                        set status = 'cancelled', updated_at = :now, webhooks_finished_at = null,
                            webhooks_leased_until = null
                        where id = :charge and capture_method = 'manual'
                          and status in ('authorized', 'capture_failed')""")
                .bind("now", now)
                .bind("charge", request.chargeReference() == null ? "" : request.chargeReference())
                .then();
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
                        select\s""" + SandboxCharge.COLUMNS + """
                        from sandbox_charges where payment_id = :payment and attempt = :attempt""")
                .bind("payment", paymentId)
                .bind("attempt", attempt)
                .map(SandboxCharge::of)
                .one();
    }

    /** The charge with this id, if the sandbox made it. */
    public Mono<SandboxCharge> chargeById(String chargeId) {
        return db.sql("""
                        select\s""" + SandboxCharge.COLUMNS + """
                        from sandbox_charges where id = :id""")
                .bind("id", chargeId)
                .map(SandboxCharge::of)
                .one();
    }

    /** Every charge the sandbox holds for a payment, oldest attempt first. */
    public Flux<SandboxCharge> chargesFor(String paymentId) {
        return db.sql("""
                        select\s""" + SandboxCharge.COLUMNS + """
                        from sandbox_charges where payment_id = :payment order by attempt""")
                .bind("payment", paymentId)
                .map(SandboxCharge::of)
                .all();
    }

    /**
     * Creates the attempt's charge, or finds the one already there, in one round trip. A 3-D Secure token makes it
     * wait for its customer, or fail at once when the customer cannot act.
     */
    private Mono<SandboxCharge> chargeOnce(ChargeRequest request) {
        Instant now = Timestamps.now(clock);
        boolean authenticates = SandboxCustomerAction.asksForAuthentication(request.paymentMethod());
        String status = !authenticates ? "processing"
                : request.customerCanAct() ? SandboxCharge.REQUIRES_ACTION : "failed";
        return db.sql("""
                        with inserted as (
                            insert into sandbox_charges (id, payment_id, attempt, amount, currency, payment_method,
                                status, failure_reason, created_at, updated_at, webhooks_due, capture_method,
                                return_url)
                            values (:id, :payment, :attempt, :amount, :currency, :method, :status, :failure, :now,
                                :now, :webhooks, :captureMethod, :returnUrl)
                            on conflict (payment_id, attempt) do nothing
                            returning\s""" + SandboxCharge.COLUMNS + """
                            )
                        select * from inserted
                        union all
                        select\s""" + SandboxCharge.COLUMNS + """
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
                .bind("captureMethod", request.captureMethod().value())
                .bind("status", status)
                .bind("failure", Parameter.fromOrEmpty(
                        "failed".equals(status) ? SandboxCustomerAction.AUTHENTICATION_REQUIRED : null, String.class))
                .bind("returnUrl", Parameter.fromOrEmpty(authenticates ? request.returnUrl() : null, String.class))
                .map(SandboxCharge::of)
                .one();
    }
}
