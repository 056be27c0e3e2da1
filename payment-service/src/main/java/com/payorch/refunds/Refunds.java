package com.payorch.refunds;

import com.payorch.events.Event;
import com.payorch.events.EventStore;
import com.payorch.events.EventType;
import com.payorch.gateway.GatewayStatus;
import com.payorch.gateway.RefundOutcome;
import com.payorch.payments.OrphanedChargeRefunds;
import com.payorch.payments.Payment;
import com.payorch.payments.PaymentNotFound;
import com.payorch.payments.PaymentQueries;
import com.payorch.refunds.internal.RefundStore;
import com.payorch.statemachine.RefundEvent;
import com.payorch.statemachine.RefundLifecycle;
import com.payorch.statemachine.RefundStatus;
import com.payorch.support.Ids;
import com.payorch.support.Timestamps;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.OptimisticLockingFailureException;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.NoTransactionException;
import org.springframework.transaction.reactive.TransactionSynchronization;
import org.springframework.transaction.reactive.TransactionSynchronizationManager;
import reactor.core.publisher.Mono;

/**
 * The single write path of refunds, inside the caller's transaction: every change of a refund's status is asked of
 * the refund state machine ({@link RefundLifecycle}) and written by one statement of {@link RefundStore} with its
 * event (and, when the payment is refunded in full, the booking's cancellation with its event). Also what the service
 * keeps about a refund it is unsure of: sends in doubt and why a refund needs a person (docs/reliability.md, "Refunds
 * in doubt and reversed").
 */
@Component
public class Refunds implements OrphanedChargeRefunds {

    /** The `reason` of the automatic refund of an orphaned charge. */
    public static final String ORPHANED_CHARGE = "orphaned_charge";

    /** Why a refund needs a person: each value of `refunds.attention_reason` this module writes. */
    public static final String REFUSED_AFTER_DOUBT =
            "refused on resend after an ambiguous send; the first send may have refunded";
    public static final String PAST_KEY_LIFETIME = "past the connector's key lifetime";
    public static final String ORPHAN_REFUND_FAILED =
            "the refund of an orphaned charge failed; a new refund is sent after a backoff";
    public static final String ORPHAN_REFUND_REVERSED =
            "the refund of an orphaned charge was reversed: the charge is not given back (no new refund is made"
                    + " automatically)";
    /** The failure reason of a reversed refund whose connector gave none. */
    public static final String REVERSED = "refund_reversed";

    private static final Logger log = LoggerFactory.getLogger(Refunds.class);

    /** What applying an outcome did: the refund as it now is, and whether this call changed its status. */
    public record Applied(Refund refund, boolean changed, boolean bookingCancelled) {
    }

    private final RefundLifecycle lifecycle = new RefundLifecycle();
    private final RefundStore refunds;
    private final PaymentQueries payments;
    private final EventStore events;
    private final DatabaseClient db;
    private final Clock clock;
    private final Counter reversed;

    public Refunds(RefundStore refunds, PaymentQueries payments, EventStore events, DatabaseClient db, Clock clock,
                   MeterRegistry registry) {
        this.refunds = refunds;
        this.payments = payments;
        this.events = events;
        this.db = db;
        this.clock = clock;
        this.reversed = Counter.builder("payments.refunds.reversed")
                .description("Refunds that SUCCEEDED and were then reported failed or reversed by their connector")
                .register(registry);
    }

    /**
     * A new PENDING refund of a COMPLETED payment, its amount reserved in the same statement.
     *
     * @param amount null: everything still refundable
     * @throws PaymentNotFound          (as an error signal) for another merchant's or no payment
     * @throws PaymentNotRefundable     when the payment is not COMPLETED
     * @throws AmountExceedsRefundable  when the amount does not fit in what is left (detail names what is)
     */
    public Mono<Refund> create(String merchantId, String paymentId, @Nullable Long amount, @Nullable String reason) {
        return payments.find(merchantId, paymentId)
                .switchIfEmpty(Mono.error(() -> new PaymentNotFound(paymentId)))
                .flatMap(payment -> lifecycle.next(null, RefundEvent.CREATE)
                        .switchIfEmpty(Mono.error(() -> new IllegalStateException("the refund machine refused CREATE")))
                        .flatMap(initial -> {
                            Instant now = Timestamps.now(clock);
                            String refundId = Ids.withPrefix("re_");
                            Event created = events.newEvent(merchantId, EventType.REFUND_CREATED, paymentId,
                                    payment.bookingId(), eventData(refundId, payment, initial, reason, null,
                                            payment.connector(), 1), now);
                            return refunds.insertReserving(refundId, payment, amount, reason, created, now)
                                    .switchIfEmpty(Mono.defer(() -> refusal(payment, amount)));
                        }));
    }

    /** Why nothing was inserted, read after the statement that decided (only to word the answer). */
    private Mono<Refund> refusal(Payment payment, @Nullable Long amount) {
        return db.sql("select status, greatest(amount_captured - amount_reserved - amount_disputed, 0) as refundable"
                + " from payments where id = :id")
                .bind("id", payment.id())
                .map(row -> {
                    String status = row.get("status", String.class);
                    if (!"COMPLETED".equals(status)) {
                        return (RuntimeException) new PaymentNotRefundable(payment.id(),
                                com.payorch.statemachine.PaymentStatus.valueOf(status));
                    }
                    return new AmountExceedsRefundable(payment.id(), amount == null ? 0 : amount,
                            row.get("refundable", Long.class), payment.currency());
                })
                .one()
                .flatMap(Mono::error);
    }

    /**
     * The automatic refund of an orphaned charge (a superseded attempt that took the money), for the whole amount,
     * at most once per attempt; it does not count against the payment's own refundable amount. Empty when it
     * exists already.
     */
    @Override
    public Mono<Refund> createForOrphan(Payment payment, int attempt, String connector) {
        return lifecycle.next(null, RefundEvent.CREATE)
                .flatMap(initial -> {
                    Instant now = Timestamps.now(clock);
                    String refundId = Ids.withPrefix("re_");
                    Map<String, Object> data = eventData(refundId, payment, initial, ORPHANED_CHARGE, null, connector,
                            1);
                    data.put("amount", payment.amount());
                    data.put("attempt", attempt);
                    Event created = events.newEvent(payment.merchantId(), EventType.REFUND_CREATED, payment.id(),
                            payment.bookingId(), data, now);
                    return refunds.insertOrphanRefund(refundId, payment, attempt, created, now);
                });
    }

    /**
     * Applies a connector's report about a refund (a notification), against the refund as read in the caller's
     * transaction: a decided outcome moves a PENDING refund to SUCCEEDED or FAILED, and a FAILED one reverses a
     * SUCCEEDED refund ({@link #reverse}); the state machine refuses anything else, which leaves it unchanged. An
     * undecided one only records the connector's reference. A lost race is an
     * {@link OptimisticLockingFailureException} (the caller re-reads and re-applies).
     */
    public Mono<Applied> apply(Refund refund, RefundOutcome outcome) {
        if (outcome.status() == GatewayStatus.FAILED && refund.status() == RefundStatus.SUCCEEDED) {
            return reverse(refund, outcome);
        }
        return applyToPending(refund, outcome);
    }

    /**
     * Applies the answer to a send or a look-up, which only ever settles a PENDING refund: such an answer never
     * reverses one that SUCCEEDED meanwhile (only the connector's report of a reversal does).
     */
    public Mono<Applied> applyToPending(Refund refund, RefundOutcome outcome) {
        if (outcome.status() == GatewayStatus.PROCESSING) {
            return (outcome.reference() == null ? Mono.<Void>empty()
                            : refunds.recordReference(refund.id(), outcome.reference()))
                    .then(refunds.findAnyMerchant(refund.id()))
                    .map(found -> new Applied(found, false, false));
        }
        RefundEvent event = outcome.status() == GatewayStatus.SUCCEEDED ? RefundEvent.SUCCEED : RefundEvent.FAIL;
        return lifecycle.next(refund.status(), event)
                .flatMap(to -> payments.findAnyMerchant(refund.paymentId())
                        .flatMap(payment -> settle(refund, payment, to, outcome)))
                .switchIfEmpty(Mono.fromSupplier(() -> new Applied(refund, false, false)));
    }

    /**
     * SUCCEEDED → FAILED (REVERSE): the money came back to the merchant. A refund that counts against its payment
     * gives its amount back to `amountRefunded` (refundable again); an orphaned charge's refund needs a person (the
     * charge is kept again; no new refund is made automatically). `refund.reversed`; the booking stays as it is.
     */
    private Mono<Applied> reverse(Refund refund, RefundOutcome outcome) {
        return lifecycle.next(refund.status(), RefundEvent.REVERSE)
                .flatMap(to -> payments.findAnyMerchant(refund.paymentId())
                        .flatMap(payment -> {
                            Instant now = Timestamps.now(clock);
                            String failureReason = outcome.failureReason() != null ? outcome.failureReason()
                                    : REVERSED;
                            Map<String, Object> data = eventData(refund.id(), payment, to, refund.reason(),
                                    failureReason, refund.connector(), refund.version() + 1);
                            data.put("amount", refund.amount());
                            if (!refund.countsAgainstPayment()) {
                                data.put("attempt", refund.attempt());
                            }
                            Event event = events.newEvent(payment.merchantId(), EventType.REFUND_REVERSED,
                                    payment.id(), payment.bookingId(), data, now);
                            return refunds.reverse(refund, failureReason, ORPHAN_REFUND_REVERSED, event, now)
                                    .switchIfEmpty(Mono.error(() -> new OptimisticLockingFailureException(
                                            "refund " + refund.id() + " is no longer at version "
                                                    + refund.version())));
                        })
                        .flatMap(amountRefunded -> {
                            log.warn("Refund {} of payment {} ({} {}, connector {}) was reversed by its connector{}",
                                    refund.id(), refund.paymentId(), refund.amount(), refund.currency(),
                                    refund.connector(), refund.countsAgainstPayment()
                                            ? "; amountRefunded is now " + amountRefunded
                                            : ": the orphaned charge is not given back, it needs attention");
                            return afterCommit(reversed::increment)
                                    .then(refunds.findAnyMerchant(refund.id()))
                                    .map(found -> new Applied(found, true, false));
                        }))
                .switchIfEmpty(Mono.fromSupplier(() -> new Applied(refund, false, false)));
    }

    /** Runs {@code action} once the caller's transaction committed (at once when there is none). */
    private static Mono<Void> afterCommit(Runnable action) {
        return TransactionSynchronizationManager.forCurrentTransaction()
                .flatMap(manager -> {
                    if (!manager.isSynchronizationActive()) {
                        action.run();
                        return Mono.<Void>empty();
                    }
                    manager.registerSynchronization(new TransactionSynchronization() {
                        @Override
                        public Mono<Void> afterCommit() {
                            return Mono.fromRunnable(action);
                        }
                    });
                    return Mono.<Void>empty();
                })
                .onErrorResume(NoTransactionException.class, e -> Mono.fromRunnable(action));
    }

    /**
     * A send's answer was lost: counted on the refund (its own statement, kept whatever the caller does next), so a
     * later refusal of a resend is not taken for "nothing was refunded".
     */
    public Mono<Void> countSendInDoubt(Refund refund) {
        return refunds.countSendInDoubt(refund.id());
    }

    /** Lists a PENDING refund as needing a person, with why. */
    public Mono<Void> needsAttention(Refund refund, String reason) {
        log.warn("Refund {} of payment {} needs attention: {}", refund.id(), refund.paymentId(), reason);
        return refunds.needsAttention(refund.id(), reason, Timestamps.now(clock));
    }

    /**
     * A new refund of an orphaned charge whose refunds so far FAILED (a new refund id: a new idempotency key at the
     * connector), with `refund.created`; empty when a live one exists already.
     */
    public Mono<Refund> retryOrphanRefund(Refund failed) {
        return payments.findAnyMerchant(failed.paymentId()).flatMap(payment -> {
            Instant now = Timestamps.now(clock);
            String refundId = Ids.withPrefix("re_");
            Map<String, Object> data = eventData(refundId, payment, RefundStatus.PENDING, failed.reason(), null,
                    failed.connector(), 1);
            data.put("amount", failed.amount());
            data.put("attempt", failed.attempt());
            data.put("retryOf", failed.id());
            Event created = events.newEvent(payment.merchantId(), EventType.REFUND_CREATED, payment.id(),
                    payment.bookingId(), data, now);
            return refunds.insertOrphanRetry(failed, refundId, created, now);
        });
    }

    private Mono<Applied> settle(Refund refund, Payment payment, RefundStatus to, RefundOutcome outcome) {
        Instant now = Timestamps.now(clock);
        String failureReason = to == RefundStatus.FAILED
                ? (outcome.failureReason() != null ? outcome.failureReason() : "failed") : null;
        Map<String, Object> data = eventData(refund.id(), payment, to, refund.reason(), failureReason,
                refund.connector(), refund.version() + 1);
        data.put("amount", refund.amount());
        if (!refund.countsAgainstPayment()) {
            data.put("attempt", refund.attempt());
        }
        Event settled = events.newEvent(payment.merchantId(),
                to == RefundStatus.SUCCEEDED ? EventType.REFUND_SUCCEEDED : EventType.REFUND_FAILED, payment.id(),
                payment.bookingId(), data, now);
        Map<String, Object> cancelled = new LinkedHashMap<>();
        cancelled.put("bookingId", payment.bookingId());
        cancelled.put("paymentId", payment.id());
        cancelled.put("status", "CANCELLED");
        cancelled.put("cancelledAt", Timestamps.format(now));
        cancelled.put("metadata", new TreeMap<>(payment.metadata()));
        Event cancelledEvent = events.newEvent(payment.merchantId(), EventType.BOOKING_CANCELLED, payment.id(),
                payment.bookingId(), cancelled, now);
        // An orphaned charge's refund is never given up: FAILED lists it as needing a person until a later one
        // (made by the reconciler after a backoff) succeeds.
        String attention = to == RefundStatus.FAILED && !refund.countsAgainstPayment() ? ORPHAN_REFUND_FAILED : null;
        Mono<Void> orphanGivenBack = to == RefundStatus.SUCCEEDED && !refund.countsAgainstPayment()
                ? refunds.clearOrphanAttention(refund.paymentId(), refund.attempt()) : Mono.empty();
        return refunds.settle(refund, to, failureReason, outcome.reference(), attention, settled, cancelledEvent, now)
                .flatMap(result -> orphanGivenBack.thenReturn(result))
                .switchIfEmpty(Mono.error(() -> new OptimisticLockingFailureException(
                        "refund " + refund.id() + " is no longer at version " + refund.version())))
                .flatMap(result -> {
                    if (result.bookingCancelled()) {
                        log.info("Booking {} of merchant {} cancelled: payment {} refunded in full",
                                payment.bookingId(), payment.merchantId(), payment.id());
                    }
                    return refunds.findAnyMerchant(refund.id())
                            .map(found -> new Applied(found, true, result.bookingCancelled()));
                });
    }

    private static Map<String, Object> eventData(String refundId, Payment payment, RefundStatus status,
                                                 @Nullable String reason, @Nullable String failureReason,
                                                 String connector, long version) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("refundId", refundId);
        data.put("paymentId", payment.id());
        data.put("currency", payment.currency());
        data.put("status", status.name());
        data.put("reason", reason);
        data.put("failureReason", failureReason);
        data.put("connector", connector);
        data.put("version", version);
        data.put("metadata", new TreeMap<>(payment.metadata()));
        return data;
    }
}
