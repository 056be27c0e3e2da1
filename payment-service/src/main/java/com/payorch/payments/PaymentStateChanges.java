package com.payorch.payments;

import com.payorch.bookings.BookingStore;
import com.payorch.events.Event;
import com.payorch.events.EventStore;
import com.payorch.events.EventType;
import com.payorch.payments.internal.PaymentStore;
import com.payorch.statemachine.PaymentEvent;
import com.payorch.statemachine.PaymentLifecycle;
import com.payorch.statemachine.PaymentStatus;
import com.payorch.support.Ids;
import com.payorch.support.SqlPart;
import com.payorch.support.Timestamps;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * The one place where payment state changes. Each change asks the state machine, writes the row only if its
 * version is still the one read, appends the transition, records the attempt, writes the event (these in one
 * statement) and, on COMPLETED, activates the booking: all inside the caller's transaction, so the caller can
 * commit its own record (an idempotent response, a webhook receipt) with it.
 */
@Component
public class PaymentStateChanges {

    private final PaymentLifecycle lifecycle;
    private final PaymentStore payments;
    private final BookingStore bookings;
    private final EventStore events;
    private final Clock clock;
    private final PaymentMetrics metrics;

    public PaymentStateChanges(PaymentLifecycle lifecycle, PaymentStore payments, BookingStore bookings,
                               EventStore events, Clock clock, PaymentMetrics metrics) {
        this.metrics = metrics;
        this.lifecycle = lifecycle;
        this.payments = payments;
        this.bookings = bookings;
        this.events = events;
        this.clock = clock;
    }

    /**
     * Creates the payment PENDING with attempt 1 at {@code connector} (and its booking on first use). The booking
     * guard's index may refuse it.
     */
    public Mono<PaymentWithHistory> create(String merchantId, NewPayment request, String connector,
                                           TransitionOrigin origin) {
        return create(merchantId, request, connector, origin, null)
                .switchIfEmpty(Mono.error(() -> new IllegalStateException("a creation without a guard wrote nothing")));
    }

    /**
     * {@link #create(String, NewPayment, String, TransitionOrigin)} in one statement with a caller's CTE part written
     * first ({@code onlyFor.apply(paymentId)}, e.g. the idempotency key's claim): the payment is written only if
     * that CTE yields a row; empty when it did not (nothing was written).
     */
    Mono<PaymentWithHistory> create(String merchantId, NewPayment request, String connector,
                                    TransitionOrigin origin,
                                    java.util.function.@Nullable Function<String, SqlPart> onlyFor) {
        return lifecycle.next(null, PaymentEvent.CREATE)
                .switchIfEmpty(Mono.error(() -> new IllegalStateException("the state machine refused CREATE")))
                .flatMap(initial -> {
                    Instant now = Timestamps.now(clock);
                    Payment payment = new Payment(Ids.payment(), merchantId, request.bookingId(), request.amount(),
                            request.currency(), request.paymentMethod(), request.customerEmail(),
                            request.description(), initial, null, 1, connector, 1, now, now, request.metadata());
                    PaymentTransition transition =
                            new PaymentTransition(null, initial, PaymentEvent.CREATE, origin.source(), origin.sourceId(), now);
                    Attempt attempt = new Attempt(1, connector, null, AttemptStatus.of(initial), null, now);
                    return payments.insertCreated(payment, transition, attempt,
                                    event(payment, EventType.PAYMENT_CREATED, now),
                                    onlyFor == null ? null : onlyFor.apply(payment.id()))
                            .filter(Boolean::booleanValue)
                            .doOnNext(done -> metrics.transition(null, initial, origin.source()))
                            .map(done -> new PaymentWithHistory(payment, java.util.List.of(transition),
                                    java.util.List.of(attempt)));
                });
    }

    /** {@link #apply(Payment, PaymentEvent, TransitionOrigin, String, String)} with no reason and no reference. */
    public Mono<PaymentChange> apply(Payment current, PaymentEvent event, TransitionOrigin origin) {
        return apply(current, event, origin, null, null);
    }

    /**
     * Moves `current` by `event`, or fails with {@link InvalidTransition} when the state machine refuses, or with an
     * optimistic-locking failure when the row changed since `current` was read. RETRY starts the next attempt at the
     * same connector; any other event updates the current attempt.
     *
     * @param failureReason kept when the payment becomes FAILED
     * @param reference     the connector's reference of the current attempt's charge, when the change knows it
     */
    public Mono<PaymentChange> apply(Payment current, PaymentEvent event, TransitionOrigin origin,
                                     @Nullable String failureReason, @Nullable String reference) {
        return plan(current, event, origin, failureReason, reference)
                .flatMap(plan -> payments.updateWithHistory(plan.changed(), current.version(), plan.transition(),
                                plan.attempt(), plan.newAttempt(), plan.event())
                        .flatMap(stored -> (plan.target() == PaymentStatus.COMPLETED
                                ? activateBooking(plan.changed(), plan.changed().updatedAt())
                                : Mono.<Void>empty()).thenReturn(new PaymentChange(plan.changed(), plan.transition(),
                                stored)))
                        .doOnSuccess(done -> metrics.transition(current.status(), plan.target(), origin.source())));
    }

    /**
     * A change of {@code current} worked out (the state machine asked) but not written yet.
     *
     * @param attempt for an update of the current attempt only its number, status, reason and reference are written
     */
    record Planned(Payment current, PaymentStatus target, Payment changed, PaymentTransition transition,
                   Attempt attempt, boolean newAttempt, @Nullable Event event, TransitionOrigin origin) {

        /** The change as it will be stored, given the current attempt as last read (it must have no reference). */
        PaymentChange asStored(Attempt currentAttempt) {
            return new PaymentChange(changed, transition, new Attempt(currentAttempt.number(),
                    currentAttempt.connector(), attempt.reference(), attempt.status(), attempt.failureReason(),
                    currentAttempt.createdAt()));
        }
    }

    /** Works out the change {@link #apply} would write; {@link InvalidTransition} when the state machine refuses. */
    Mono<Planned> plan(Payment current, PaymentEvent event, TransitionOrigin origin, @Nullable String failureReason,
                       @Nullable String reference) {
        return lifecycle.next(current.status(), event)
                .switchIfEmpty(Mono.error(() -> new InvalidTransition(current.status(), event)))
                .map(target -> {
                    Instant now = Timestamps.now(clock);
                    String reason = target == PaymentStatus.FAILED ? failureReason : null;
                    boolean retry = event == PaymentEvent.RETRY;
                    Payment changed = current.moveTo(target, reason, retry ? current.attempt() + 1 : current.attempt(),
                            now);
                    // For an update of the current attempt only its number, status, reason and reference are written;
                    // the statement answers the attempt as stored.
                    Attempt attempt = new Attempt(changed.attempt(), changed.connector(), reference,
                            AttemptStatus.of(target), reason, now);
                    PaymentTransition transition = new PaymentTransition(current.status(), target, event,
                            origin.source(), origin.sourceId(), now);
                    Event outboxEvent = eventFor(target).map(type -> event(changed, type, now)).orElse(null);
                    return new Planned(current, target, changed, transition, attempt, retry, outboxEvent, origin);
                });
    }

    /**
     * Writes a planned update of the current attempt (not a RETRY, not to COMPLETED: those take more than one
     * statement) together with a caller's part, in one statement, all or nothing: see
     * {@link PaymentStore#updateCurrentAttemptWith}. The current attempt must have had no reference when read.
     */
    Mono<PaymentStore.GuardedWrite> writeWith(Planned plan, SqlPart part) {
        if (plan.newAttempt() || plan.target() == PaymentStatus.COMPLETED) {
            return Mono.error(new IllegalArgumentException("a " + plan.transition().event() + " to "
                    + plan.target() + " is not written in a single statement"));
        }
        return payments.updateCurrentAttemptWith(plan.changed(), plan.current().version(), plan.transition(),
                        plan.attempt(), plan.event(), part)
                .doOnNext(result -> {
                    if (result == PaymentStore.GuardedWrite.WRITTEN) {
                        metrics.transition(plan.current().status(), plan.target(), plan.origin().source());
                    }
                });
    }

    /** The outbox event a transition to this status writes, if any. */
    static Optional<EventType> eventFor(PaymentStatus target) {
        return Optional.ofNullable(switch (target) {
            case PROCESSING -> EventType.PAYMENT_PROCESSING;
            case COMPLETED -> EventType.PAYMENT_COMPLETED;
            case FAILED -> EventType.PAYMENT_FAILED;
            case PENDING -> null; // a retry: the payment is back where it started, and clients see it in its history
        });
    }

    /** The booking is activated by the COMPLETED transition, in its transaction, and only once. */
    private Mono<Void> activateBooking(Payment completed, Instant at) {
        return bookings.activate(completed.merchantId(), completed.bookingId(), completed.id(), at)
                .flatMap(activated -> {
                    if (!activated) {
                        return Mono.empty();
                    }
                    Map<String, Object> data = new LinkedHashMap<>();
                    data.put("bookingId", completed.bookingId());
                    data.put("paymentId", completed.id());
                    data.put("activatedAt", Timestamps.format(at));
                    data.put("metadata", new java.util.TreeMap<>(completed.metadata()));
                    return events.append(completed.merchantId(), EventType.BOOKING_ACTIVATED, completed.id(),
                            completed.bookingId(), data, at).then();
                });
    }

    private Event event(Payment payment, EventType type, Instant at) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("status", payment.status().name());
        data.put("version", payment.version());
        data.put("amount", payment.amount());
        data.put("currency", payment.currency());
        data.put("attempt", payment.attempt());
        if (payment.failureReason() != null) {
            data.put("failureReason", payment.failureReason());
        }
        data.put("metadata", new java.util.TreeMap<>(payment.metadata()));
        return events.newEvent(payment.merchantId(), type, payment.id(), payment.bookingId(), data, at);
    }
}
