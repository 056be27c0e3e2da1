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
import reactor.core.publisher.Mono;

/**
 * The single write path of refunds, inside the caller's transaction: every change of a refund's status is asked of
 * the refund state machine ({@link RefundLifecycle}) and written by one statement of {@link RefundStore} with its
 * event (and, when the payment is refunded in full, the booking's cancellation with its event).
 */
@Component
public class Refunds implements OrphanedChargeRefunds {

    /** The `reason` of the automatic refund of an orphaned charge. */
    public static final String ORPHANED_CHARGE = "orphaned_charge";

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

    public Refunds(RefundStore refunds, PaymentQueries payments, EventStore events, DatabaseClient db, Clock clock) {
        this.refunds = refunds;
        this.payments = payments;
        this.events = events;
        this.db = db;
        this.clock = clock;
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
        return db.sql("select status, amount - amount_reserved as refundable from payments where id = :id")
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
     * Applies a connector's word about a refund, against the refund as read in the caller's transaction: a decided
     * outcome moves a PENDING refund to SUCCEEDED or FAILED (the state machine refuses anything else, which leaves
     * it unchanged); an undecided one only records the connector's reference. A lost race is an
     * {@link OptimisticLockingFailureException} (the caller re-reads and re-applies).
     */
    public Mono<Applied> apply(Refund refund, RefundOutcome outcome) {
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
        return refunds.settle(refund, to, failureReason, outcome.reference(), settled, cancelledEvent, now)
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
