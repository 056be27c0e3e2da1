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
import java.time.Duration;
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
    private final Duration authorizationValidity;

    public PaymentStateChanges(PaymentLifecycle lifecycle, PaymentStore payments, BookingStore bookings,
                               EventStore events, Clock clock, PaymentMetrics metrics, CaptureProperties capture) {
        this.metrics = metrics;
        this.authorizationValidity = capture.authorizationValidity();
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
                            request.description(), initial, null, 1, connector, 1, now, now, request.metadata(), 0,
                            Hold.of(request.captureMethod()), CustomerAction.returningTo(request.returnUrl()));
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
                        .flatMap(stored -> bookingChange(plan.target(), plan.changed())
                                .thenReturn(new PaymentChange(plan.changed(), plan.transition(), stored)))
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
                    // A refused capture keeps its reason on the AUTHORIZED payment (the money is still held).
                    String reason = target == PaymentStatus.FAILED || event == PaymentEvent.CAPTURE_FAIL
                            ? failureReason : null;
                    boolean retry = event == PaymentEvent.RETRY;
                    Payment changed = current.moveTo(target, reason, retry ? current.attempt() + 1 : current.attempt(),
                            now, current.hold().after(event, target, now, current.amount(), authorizationValidity));
                    // For an update of the current attempt only its number, status, reason and reference are written;
                    // the statement answers the attempt as stored.
                    Attempt attempt = new Attempt(changed.attempt(), changed.connector(), reference,
                            AttemptStatus.of(target), reason, now);
                    PaymentTransition transition = new PaymentTransition(current.status(), target, event,
                            origin.source(), origin.sourceId(), now);
                    Event outboxEvent = eventFor(event, target).map(type -> event(changed, type, now)).orElse(null);
                    return new Planned(current, target, changed, transition, attempt, retry, outboxEvent, origin);
                });
    }

    /**
     * Writes a planned update of the current attempt (not a RETRY, not to COMPLETED: those take more than one
     * statement) together with a caller's part, in one statement, all or nothing: see
     * {@link PaymentStore#updateCurrentAttemptWith}. The current attempt must have had no reference when read.
     */
    Mono<PaymentStore.GuardedWrite> writeWith(Planned plan, SqlPart part) {
        if (plan.newAttempt() || changesBooking(plan.target())) {
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

    /**
     * Moves {@code current} (AUTHORIZED, no capture in flight) to CAPTURING for a capture of {@code amount}: the next
     * capture number, written with the transition. Fails like {@link #apply} (the state machine refuses, or the row
     * changed since it was read: a cancel requested meanwhile raised its version).
     */
    public Mono<PaymentChange> startCapture(Payment current, long amount, TransitionOrigin origin) {
        if (current.hold().cancelRequested()) {
            return Mono.error(new InvalidTransition(current.status(), PaymentEvent.CAPTURE));
        }
        return apply(current.withHold(current.hold().capturing(amount)), PaymentEvent.CAPTURE, origin, null, null);
    }

    /**
     * Records that a cancel of {@code current} won: no capture can start after it (and it cannot if one is in
     * flight). Answers the payment as written (version raised); {@link InvalidTransition} when the life cycle does not
     * allow CANCEL from its status or a capture is in flight; an optimistic-locking failure when the row changed.
     */
    public Mono<Payment> requestCancel(Payment current, @Nullable String reason) {
        return lifecycle.next(current.status(), PaymentEvent.CANCEL)
                .filter(allowed -> current.hold().captureAmount() == null)
                .switchIfEmpty(Mono.error(() -> new InvalidTransition(current.status(), PaymentEvent.CANCEL)))
                .flatMap(allowed -> {
                    if (current.hold().cancelRequested()) {
                        return Mono.just(current); // requested already: the same release is sent again
                    }
                    Instant now = Timestamps.now(clock);
                    Payment changed = current.moveTo(current.status(), current.failureReason(), current.attempt(), now,
                            current.hold().cancelRequested(now, reason));
                    return payments.requestCancel(changed, current.version())
                            .flatMap(written -> written ? Mono.just(changed)
                                    : Mono.error(new org.springframework.dao.OptimisticLockingFailureException(
                                            "payment " + current.id() + " is no longer at version "
                                                    + current.version())));
                });
    }

    /** Whether a transition to this status changes the payment's booking (activates or cancels it). */
    static boolean changesBooking(PaymentStatus target) {
        return target == PaymentStatus.COMPLETED || target == PaymentStatus.AUTHORIZED
                || target == PaymentStatus.CANCELLED;
    }

    /** The outbox event a transition writes, if any. */
    static Optional<EventType> eventFor(PaymentEvent event, PaymentStatus target) {
        return Optional.ofNullable(switch (target) {
            case PROCESSING -> EventType.PAYMENT_PROCESSING;
            case AUTHORIZED -> event == PaymentEvent.CAPTURE_FAIL ? EventType.PAYMENT_CAPTURE_FAILED
                    : EventType.PAYMENT_AUTHORIZED;
            case CAPTURING -> null; // the capture's outcome is the event; its history shows when it was sent
            case COMPLETED -> EventType.PAYMENT_COMPLETED;
            case FAILED -> EventType.PAYMENT_FAILED;
            case CANCELLED -> EventType.PAYMENT_CANCELLED;
            case PENDING -> null; // a retry: the payment is back where it started, and clients see it in its history
            case REQUIRES_ACTION -> EventType.PAYMENT_REQUIRES_ACTION;
        });
    }

    /**
     * The booking is activated by the AUTHORIZED (a hold guarantees the room) or COMPLETED transition, in its
     * transaction, and only once; a CANCELLED hold cancels the booking it activated, once.
     */
    private Mono<Void> bookingChange(PaymentStatus target, Payment changed) {
        return switch (target) {
            case AUTHORIZED, COMPLETED -> activateBooking(changed, changed.updatedAt());
            case CANCELLED -> cancelBooking(changed, changed.updatedAt());
            default -> Mono.empty();
        };
    }

    private Mono<Void> cancelBooking(Payment cancelled, Instant at) {
        return bookings.cancel(cancelled.merchantId(), cancelled.bookingId(), cancelled.id(), at)
                .flatMap(done -> {
                    if (!done) {
                        return Mono.empty();
                    }
                    Map<String, Object> data = new LinkedHashMap<>();
                    data.put("bookingId", cancelled.bookingId());
                    data.put("paymentId", cancelled.id());
                    data.put("status", "CANCELLED");
                    data.put("cancelledAt", Timestamps.format(at));
                    data.put("metadata", new java.util.TreeMap<>(cancelled.metadata()));
                    return events.append(cancelled.merchantId(), EventType.BOOKING_CANCELLED, cancelled.id(),
                            cancelled.bookingId(), data, at).then();
                });
    }

    /** The booking is activated once: by the first AUTHORIZED or COMPLETED transition of a payment for it. */
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
        if (payment.status() == PaymentStatus.REQUIRES_ACTION && payment.action().nextActionUrl() != null) {
            data.put("nextAction", Map.of("type", "redirect", "url", payment.action().nextActionUrl()));
        }
        if (payment.manualCapture()) {
            data.put("captureMethod", payment.hold().captureMethod().value());
            data.put("amountCaptured", payment.hold().amountCaptured());
            if (payment.status() == PaymentStatus.AUTHORIZED && payment.hold().expiresAt() != null) {
                data.put("authorizationExpiresAt", Timestamps.format(payment.hold().expiresAt()));
            }
        }
        data.put("metadata", new java.util.TreeMap<>(payment.metadata()));
        return events.newEvent(payment.merchantId(), type, payment.id(), payment.bookingId(), data, at);
    }
}
