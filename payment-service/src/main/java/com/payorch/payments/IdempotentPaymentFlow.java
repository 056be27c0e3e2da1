package com.payorch.payments;

import com.payorch.gateway.GatewayOutcome;
import com.payorch.gateway.GatewayUnavailableException;
import com.payorch.idempotency.IdempotencyKeyReused;
import com.payorch.idempotency.IdempotencyKeys;
import com.payorch.idempotency.IdempotencyLockLostException;
import com.payorch.idempotency.IdempotencyRequestInProgress;
import com.payorch.idempotency.IdempotentRequest;
import com.payorch.idempotency.KeyAcquisition;
import com.payorch.idempotency.KeyClaim;
import com.payorch.idempotency.RecoveryPoint;
import com.payorch.idempotency.StoredResponse;
import com.payorch.statemachine.PaymentEvent;
import com.payorch.statemachine.PaymentStatus;
import com.payorch.support.DatabaseErrors;
import com.payorch.support.Refusal;
import com.payorch.support.UnstorableText;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import reactor.util.retry.Retry;

/**
 * Drives an idempotent payment request (create, or retry) through its recovery points, after brandur's
 * "Implementing Stripe-like Idempotency Keys in Postgres":
 * <pre>
 *   STARTED ──tx: payment PENDING + key──▶ PAYMENT_CREATED ──connector submit (no tx)──▶ tx: outcome + response ──▶ FINISHED
 * </pre>
 * Each arrow into a recovery point is one committed transaction; a retry of the request resumes from the last one,
 * and the connector call is keyed by the payment id and attempt, so no path charges twice.
 */
@Component
public class IdempotentPaymentFlow {

    private static final Logger log = LoggerFactory.getLogger(IdempotentPaymentFlow.class);
    private static final int FREE_ATTEMPTS = 8;
    /**
     * This flow's recovery point between the key's STARTED and FINISHED, with the payment's id: the payment row is
     * committed (created, or moved back to PENDING by a retry); the connector may not know it yet.
     */
    private static final String PAYMENT_CREATED = "PAYMENT_CREATED";

    private final IdempotencyKeys keys;
    private final PaymentQueries payments;
    private final PaymentStateChanges stateChanges;
    private final GatewayOutcomes outcomes;
    private final ConnectorSubmission gateway;
    private final BookingGuard bookingGuard;
    private final PaymentMetrics metrics;
    private final RetryingTransaction retryingTransaction;
    private final HoldRequests holds;
    private final CustomerActionRequests customerActions;

    public IdempotentPaymentFlow(IdempotencyKeys keys, PaymentQueries payments, PaymentStateChanges stateChanges,
                                 GatewayOutcomes outcomes, ConnectorSubmission gateway,
                                 BookingGuard bookingGuard, PaymentMetrics metrics,
                                 RetryingTransaction retryingTransaction, HoldRequests holds,
                                 CustomerActionRequests customerActions) {
        this.holds = holds;
        this.customerActions = customerActions;
        this.keys = keys;
        this.payments = payments;
        this.stateChanges = stateChanges;
        this.outcomes = outcomes;
        this.gateway = gateway;
        this.bookingGuard = bookingGuard;
        this.metrics = metrics;
        this.retryingTransaction = retryingTransaction;
    }

    /**
     * `POST /v1/payments`: a new payment, PENDING, then submitted. A new key takes three statements besides the
     * connector call: (1) claim the key with the payment, its booking, transition, attempt and event; (2) after the
     * call, the outcome together with the stored response; the key's primary key serialises concurrent duplicates,
     * which then take {@link #execute}'s path (replay, 422, 409 or take-over), as does a key that already exists.
     */
    public Mono<StoredResponse> create(IdempotentRequest request, NewPayment newPayment, PaymentResponse response) {
        String merchantId = request.merchantId();
        String connector = gateway.firstConnector(merchantId, newPayment.currency());
        Optional<AmountNotExpressible> inexpressible = gateway.inexpressible(connector, newPayment.amount(),
                newPayment.currency());
        if (inexpressible.isPresent()) {
            // Before the key is claimed: nothing stored, nothing sent, the key usable again.
            return Mono.error(inexpressible.get());
        }
        TransitionOrigin origin = TransitionOrigin.api(request.key());
        Function<KeyClaim, Mono<PaymentWithHistory>> firstStep = claim -> bookingGuard.guarded(
                stateChanges.create(merchantId, newPayment, connector, origin), merchantId, newPayment.bookingId());
        return Mono.defer(() -> {
            UUID owner = UUID.randomUUID();
            // Until the statement commits nothing is claimed; a failure of it is answered like one after a claim.
            KeyClaim unclaimed = new KeyClaim(request, owner, RecoveryPoint.STARTED, null);
            return bookingGuard.guarded(stateChanges.create(merchantId, newPayment, connector, origin,
                                    paymentId -> keys.claimNewPart("claimed", request, owner, PAYMENT_CREATED,
                                            paymentId)),
                            merchantId, newPayment.bookingId())
                    .onErrorResume(BookingGuard.RaceLost.class, bookingGuard::refuse)
                    .onErrorResume(error -> giveBack(unclaimed, error).then(Mono.<PaymentWithHistory>empty()))
                    .flatMap(created -> {
                        KeyClaim claim = new KeyClaim(request, owner, PAYMENT_CREATED, created.payment().id());
                        return submitAndFinishCreated(claim, created, response)
                                .onErrorResume(error -> giveBack(claim, error));
                    })
                    .switchIfEmpty(Mono.defer(() -> execute(keys.acquireExisting(request), firstStep, response)));
        });
    }

    /**
     * After a create's first statement: submit, then write the outcome and the response in one statement when the
     * outcome is a single step of the attempt as created (the usual case: processing, or declined); else, or when
     * the payment changed meanwhile (a webhook got there first), the general path re-reads it in a transaction.
     */
    private Mono<StoredResponse> submitAndFinishCreated(KeyClaim claim, PaymentWithHistory created,
                                                        PaymentResponse response) {
        Payment known = created.payment();
        TransitionOrigin origin = TransitionOrigin.api(claim.request().key());
        return submit(known).flatMap(outcome -> outcome.map(o -> outcomes.planSingleStep(known, o, origin))
                .orElse(Mono.empty())
                .flatMap(plan -> {
                    StoredResponse stored = response.of(created.after(plan.asStored(created.currentAttempt())));
                    return stateChanges.writeWith(plan, keys.finishPart("finished", "current", claim, stored))
                            .flatMap(written -> switch (written) {
                                case WRITTEN -> Mono.just(stored);
                                case STALE -> Mono.<StoredResponse>empty();
                                case REFUSED_BY_PART -> Mono.<StoredResponse>error(new IdempotencyLockLostException());
                            });
                })
                .switchIfEmpty(Mono.defer(() -> finish(claim, known, outcome, response))));
    }

    /**
     * `POST /v1/payments/{id}/retry`: FAILED -> PENDING (a new attempt), then submitted.
     *
     * @param precondition throws (e.g. {@link VersionMismatch}) when the client's precondition does not hold
     */
    public Mono<StoredResponse> retry(IdempotentRequest request, String paymentId, Consumer<Payment> precondition,
                                      PaymentResponse response) {
        String merchantId = request.merchantId();
        return execute(request, claim -> found(merchantId, paymentId, precondition)
                .flatMap(payment -> bookingGuard.guarded(stateChanges.apply(payment, PaymentEvent.RETRY,
                                TransitionOrigin.api(request.key())), merchantId, payment.bookingId())
                        .map(PaymentChange::payment))
                .flatMap(payment -> payments.findWithHistory(merchantId, payment.id())), response);
    }

    /**
     * `POST /v1/payments/{id}/capture`: AUTHORIZED -> CAPTURING (the capture's amount and number recorded with it),
     * then the capture sent with its own connector key. A retry of the request after a lost answer resumes at the
     * recorded capture and sends the same one again.
     *
     * @param amount null: all that is capturable
     */
    public Mono<StoredResponse> capture(IdempotentRequest request, String paymentId, @Nullable Long amount,
                                        Consumer<Payment> precondition, PaymentResponse response) {
        String merchantId = request.merchantId();
        return execute(keys.acquire(request), claim -> found(merchantId, paymentId, precondition)
                .flatMap(payment -> {
                    if (payment.status() != PaymentStatus.AUTHORIZED) {
                        return Mono.error(new InvalidTransition(payment.status(), PaymentEvent.CAPTURE));
                    }
                    long captured = amount != null ? amount : payment.amount();
                    if (captured > payment.amount()) {
                        return Mono.error(new CaptureAmountOutOfRange(payment.id(), captured, payment.amount(),
                                payment.currency()));
                    }
                    return stateChanges.startCapture(payment, captured, TransitionOrigin.api(request.key()))
                            .map(PaymentChange::payment);
                })
                .flatMap(payment -> payments.findWithHistory(merchantId, payment.id())), holds::sendCapture, response);
    }

    /**
     * `POST /v1/payments/{id}/cancel`: the cancel recorded (it wins against any later capture; one in flight wins
     * against it), then the release sent with its own connector key; CANCELLED once the connector confirms.
     */
    public Mono<StoredResponse> cancel(IdempotentRequest request, String paymentId, @Nullable String reason,
                                       Consumer<Payment> precondition, PaymentResponse response) {
        String merchantId = request.merchantId();
        return execute(keys.acquire(request), claim -> found(merchantId, paymentId, precondition)
                .flatMap(payment -> {
                    if (!payment.manualCapture() || payment.hold().cancelRequested()) {
                        // Only a hold is released; a cancel already requested is another request's to finish.
                        return Mono.error(new InvalidTransition(payment.status(), PaymentEvent.CANCEL));
                    }
                    return stateChanges.requestCancel(payment, reason);
                })
                .flatMap(payment -> payments.findWithHistory(merchantId, payment.id())), holds::sendCancel, response);
    }

    /**
     * `POST /v1/payments/{id}/complete`: the customer came back; the connector is asked for the outcome (with the
     * {@code redirectResult} their browser brought, when the connector needs it) and its answer applied like any
     * other. Only a payment waiting for its customer (REQUIRES_ACTION) may be completed; a retry of the request after
     * a lost answer asks again (the connector's own key makes it the same request).
     */
    public Mono<StoredResponse> complete(IdempotentRequest request, String paymentId, @Nullable String redirectResult,
                                         PaymentResponse response) {
        return complete(request, paymentId, redirectResult, payment -> { }, response);
    }

    /**
     * {@link #complete(IdempotentRequest, String, String, PaymentResponse)} once the client's precondition (If-Match)
     * holds for the payment.
     */
    public Mono<StoredResponse> complete(IdempotentRequest request, String paymentId, @Nullable String redirectResult,
                                         Consumer<Payment> precondition, PaymentResponse response) {
        String merchantId = request.merchantId();
        return execute(keys.acquire(request), claim -> found(merchantId, paymentId, precondition)
                .flatMap(payment -> payment.status() == PaymentStatus.REQUIRES_ACTION
                        ? payments.findWithHistory(merchantId, payment.id())
                        : Mono.error(InvalidTransition.notWaitingForCustomer(payment.status()))),
                payment -> customerActions.sendCompletion(payment, redirectResult), response);
    }

    /** The merchant's payment (404 for any other), once the client's precondition (If-Match) holds for it. */
    private Mono<Payment> found(String merchantId, String paymentId, Consumer<Payment> precondition) {
        return payments.find(merchantId, paymentId)
                .switchIfEmpty(Mono.error(() -> new PaymentNotFound(paymentId)))
                .doOnNext(precondition);
    }

    /** Package-private for tests that drive the flow with a first step of their own. */
    Mono<StoredResponse> execute(IdempotentRequest request,
                                         Function<KeyClaim, Mono<PaymentWithHistory>> firstStep,
                                         PaymentResponse response) {
        return execute(keys.acquire(request), firstStep, this::submitIfPending, response);
    }

    private Mono<StoredResponse> execute(Mono<KeyAcquisition> acquire,
                                         Function<KeyClaim, Mono<PaymentWithHistory>> firstStep,
                                         PaymentResponse response) {
        return execute(acquire, firstStep, this::submitIfPending, response);
    }

    private Mono<StoredResponse> execute(Mono<KeyAcquisition> acquire,
                                         Function<KeyClaim, Mono<PaymentWithHistory>> firstStep,
                                         Function<Payment, Mono<Optional<GatewayOutcome>>> connectorStep,
                                         PaymentResponse response) {
        return acquire
                .doOnError(IdempotencyKeyReused.class, e -> metrics.idempotency("idempotency_key_reused"))
                .doOnError(IdempotencyRequestInProgress.class,
                        e -> metrics.idempotency("idempotency_request_in_progress"))
                .flatMap(acquisition -> {
                    if (acquisition instanceof KeyAcquisition.Replay replay) {
                        metrics.idempotency("replayed");
                        return Mono.just(replay.response());
                    }
                    KeyClaim claim = ((KeyAcquisition.Claimed) acquisition).claim();
                    return resume(claim, firstStep, connectorStep, response)
                            .onErrorResume(error -> giveBack(claim, error));
                });
    }

    private Mono<StoredResponse> resume(KeyClaim claim, Function<KeyClaim, Mono<PaymentWithHistory>> firstStep,
                                        Function<Payment, Mono<Optional<GatewayOutcome>>> connectorStep,
                                        PaymentResponse response) {
        Mono<Payment> created = switch (claim.recoveryPoint()) {
            // Retried from a fresh read when it lost an optimistic-locking race: a retry that lost to another retry of
            // the same payment then sees it no longer FAILED and is refused as an invalid transition.
            case RecoveryPoint.STARTED -> retryingTransaction.run(() -> firstStep.apply(claim)
                            .flatMap(payment -> keys.advanceTo(claim, PAYMENT_CREATED, payment.payment().id())
                                    .thenReturn(payment.payment())))
                    .onErrorResume(BookingGuard.RaceLost.class, bookingGuard::refuse);
            case PAYMENT_CREATED -> payments.find(claim.request().merchantId(), claim.resourceId())
                    .switchIfEmpty(Mono.error(() -> new IllegalStateException("payment " + claim.resourceId()
                            + " vanished")));
            default -> Mono.error(new IllegalStateException("a payment request cannot resume at "
                    + claim.recoveryPoint()));
        };
        // `known` is the payment as this attempt last saw it; the final transaction reads it again before deciding.
        return created.flatMap(known -> connectorStep.apply(known)
                .flatMap(outcome -> finish(claim, known, outcome, response)));
    }

    /** A create's or a retry's connector step: the submit of a PENDING payment. */
    private Mono<Optional<GatewayOutcome>> submitIfPending(Payment known) {
        return known.status() == PaymentStatus.PENDING ? submit(known) : Mono.just(Optional.empty());
    }

    /** One transaction: re-read the payment, apply the outcome (if any) and store the response. */
    private Mono<StoredResponse> finish(KeyClaim claim, Payment known, Optional<GatewayOutcome> outcome,
                                        PaymentResponse response) {
        String merchantId = claim.request().merchantId();
        TransitionOrigin origin = TransitionOrigin.api(claim.request().key());
        return retryingTransaction.run(() -> payments.findWithHistory(merchantId, known.id())
                .flatMap(current -> outcome.isEmpty() ? Mono.just(current)
                        : outcomes.apply(current.payment(), outcome.get(), origin)
                                .map(result -> current.after(result.changes())))
                .flatMap(current -> {
                    StoredResponse stored = response.of(current);
                    return keys.finish(claim, stored).thenReturn(stored);
                }));
    }

    /** The connector's outcome; empty when it could not be reached (recovery submits later). */
    private Mono<Optional<GatewayOutcome>> submit(Payment payment) {
        return gateway.submit(payment)
                .map(Optional::of)
                .onErrorResume(GatewayUnavailableException.class, e -> {
                    log.warn("No connector could take payment {} now; it stays PENDING for recovery", payment.id());
                    return Mono.just(Optional.empty());
                });
    }

    /**
     * A refusal before any state change frees the key for another request; so does text the database could not store
     * (a 400, behind the parser's own checks). Any other failure keeps what was committed and frees the key at once:
     * deleted when nothing was committed under it, else unlocked so the client's retry resumes from the last
     * recovery point. When the database cannot be reached to free it, that is tried again in the background; the
     * lock timeout frees it at the latest.
     */
    private Mono<StoredResponse> giveBack(KeyClaim claim, Throwable error) {
        if (error instanceof IdempotencyLockLostException) {
            return Mono.error(new IdempotencyRequestInProgress(
                    "Another attempt with this Idempotency-Key took over; retry to get its result.", 1));
        }
        if (error instanceof Refusal) {
            return keys.forget(claim).then(Mono.error(error));
        }
        if (DatabaseErrors.isBadCharacter(error)) {
            return keys.forget(claim).then(Mono.error(new UnstorableText()));
        }
        log.warn("Idempotent request {} (merchant {}, resumed at {}) failed: {}", claim.request().key(),
                claim.request().merchantId(), claim.recoveryPoint(), DatabaseErrors.summary(error));
        return keys.free(claim)
                .onErrorResume(e -> {
                    freeInTheBackground(claim);
                    return Mono.empty();
                })
                .then(Mono.error(error));
    }

    private void freeInTheBackground(KeyClaim claim) {
        keys.free(claim)
                .retryWhen(Retry.backoff(FREE_ATTEMPTS, Duration.ofMillis(200)).maxBackoff(Duration.ofSeconds(5)))
                .subscribe(null, e -> log.warn("Idempotency key {} (merchant {}) stays locked until its lock timeout: {}",
                        claim.request().key(), claim.request().merchantId(), DatabaseErrors.summary(e)));
    }
}
