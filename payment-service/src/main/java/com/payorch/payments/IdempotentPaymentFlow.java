package com.payorch.payments;

import com.payorch.gateway.ChargeRequest;
import com.payorch.gateway.GatewayException;
import com.payorch.gateway.GatewayUnavailableException;
import com.payorch.gateway.PaymentGateway;
import com.payorch.idempotency.IdempotencyKeys;
import com.payorch.idempotency.IdempotencyLockLostException;
import com.payorch.idempotency.IdempotentRequest;
import com.payorch.idempotency.KeyAcquisition;
import com.payorch.idempotency.KeyClaim;
import com.payorch.idempotency.StoredResponse;
import com.payorch.statemachine.PaymentEvent;
import com.payorch.statemachine.PaymentStatus;
import com.payorch.web.ApiProblem;
import com.payorch.web.DatabaseErrors;
import com.payorch.web.ProblemCode;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;
import reactor.util.retry.Retry;

/**
 * Drives an idempotent payment request (create, or retry) through its recovery points, after brandur's
 * "Implementing Stripe-like Idempotency Keys in Postgres":
 * <pre>
 *   STARTED ──tx: payment PENDING + key──▶ PAYMENT_CREATED ──gateway submit (no tx)──▶ tx: PROCESSING + response ──▶ FINISHED
 * </pre>
 * Each arrow into a recovery point is one committed transaction; a retry of the request resumes from the last one,
 * and the gateway call is keyed by the payment id and attempt, so no path charges twice.
 */
@Component
public class IdempotentPaymentFlow {

    private static final Logger log = LoggerFactory.getLogger(IdempotentPaymentFlow.class);
    private static final int FREE_ATTEMPTS = 8;

    private final IdempotencyKeys keys;
    private final PaymentStore payments;
    private final PaymentStateChanges stateChanges;
    private final PaymentGateway gateway;
    private final PaymentView view;
    private final TransactionalOperator transaction;
    private final BookingGuard bookingGuard;
    private final PaymentMetrics metrics;
    private final RetryingTransaction retryingTransaction;

    public IdempotentPaymentFlow(IdempotencyKeys keys, PaymentStore payments, PaymentStateChanges stateChanges,
                                 PaymentGateway gateway, PaymentView view, TransactionalOperator transaction,
                                 BookingGuard bookingGuard, PaymentMetrics metrics,
                                 RetryingTransaction retryingTransaction) {
        this.keys = keys;
        this.payments = payments;
        this.stateChanges = stateChanges;
        this.gateway = gateway;
        this.view = view;
        this.transaction = transaction;
        this.bookingGuard = bookingGuard;
        this.metrics = metrics;
        this.retryingTransaction = retryingTransaction;
    }

    /**
     * @param firstStep what the request does to the payment at STARTED, inside the transaction that also advances
     *                  the key; answers the payment it created or moved back to PENDING
     * @param status    the HTTP status of a successful response (201 for create, 200 for retry)
     * @param withLocation whether the response names the payment in a Location header
     */
    public Mono<StoredResponse> execute(IdempotentRequest request, Function<KeyClaim, Mono<Payment>> firstStep,
                                        int status, boolean withLocation) {
        return keys.acquire(request)
                .doOnError(ApiProblem.class, problem -> metrics.idempotency(problem.problemCode().code()))
                .flatMap(acquisition -> {
                    if (acquisition instanceof KeyAcquisition.Replay replay) {
                        metrics.idempotency("replayed");
                        return Mono.just(replay.response());
                    }
                    KeyClaim claim = ((KeyAcquisition.Claimed) acquisition).claim();
                    return resume(claim, firstStep, status, withLocation)
                            .onErrorResume(error -> giveBack(claim, error));
                });
    }

    private Mono<StoredResponse> resume(KeyClaim claim, Function<KeyClaim, Mono<Payment>> firstStep, int status,
                                        boolean withLocation) {
        Mono<Payment> created = switch (claim.recoveryPoint()) {
            case STARTED -> transaction.transactional(Mono.defer(() -> firstStep.apply(claim)
                            .flatMap(payment -> keys.advanceToPaymentCreated(claim, payment.id()).thenReturn(payment))))
                    .onErrorResume(BookingGuard.RaceLost.class, bookingGuard::refuse);
            case PAYMENT_CREATED -> payments.find(claim.request().merchantId(), claim.paymentId())
                    .switchIfEmpty(Mono.error(() -> new IllegalStateException("payment " + claim.paymentId() + " vanished")));
            case FINISHED -> Mono.error(new IllegalStateException("a finished key is replayed, not resumed"));
        };
        return created.flatMap(payment -> submitAndFinish(claim, payment, status, withLocation));
    }

    /** `known` is the payment as this attempt last saw it; the final transaction reads it again before deciding. */
    private Mono<StoredResponse> submitAndFinish(KeyClaim claim, Payment known, int status, boolean withLocation) {
        String merchantId = claim.request().merchantId();
        return (known.status() == PaymentStatus.PENDING ? submit(known) : Mono.just(false))
                .flatMap(submitted -> retryingTransaction.run(() -> payments.findWithHistory(merchantId, known.id())
                        .flatMap(current -> submitted && current.payment().status() == PaymentStatus.PENDING
                                ? stateChanges.apply(current.payment(), PaymentEvent.SUBMIT,
                                        TransitionOrigin.api(claim.request().key()), null).map(current::after)
                                : Mono.just(current))
                        .flatMap(current -> storeResponse(claim, current, status, withLocation))));
    }

    /** True when the gateway holds the charge; false when it could not be reached (recovery submits later). */
    private Mono<Boolean> submit(Payment payment) {
        return gateway.submit(new ChargeRequest(payment.id(), payment.attempt(), payment.amount(), payment.currency(),
                        payment.paymentMethod()))
                .thenReturn(true)
                .onErrorResume(GatewayUnavailableException.class, e -> {
                    log.warn("Gateway unreachable for payment {}; it stays PENDING for recovery", payment.id());
                    return Mono.just(false);
                });
    }

    private Mono<StoredResponse> storeResponse(KeyClaim claim, PaymentWithHistory current, int status,
                                               boolean withLocation) {
        Payment payment = current.payment();
        Map<String, String> headers = new LinkedHashMap<>();
        if (withLocation) {
            headers.put("Location", "/v1/payments/" + payment.id());
        }
        headers.put("ETag", PaymentView.etag(payment));
        StoredResponse response = new StoredResponse(status, headers, view.render(payment, current.history()), false);
        return keys.finish(claim, response).thenReturn(response);
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
            return Mono.error(new ApiProblem(ProblemCode.IDEMPOTENCY_REQUEST_IN_PROGRESS,
                    "Another attempt with this Idempotency-Key took over; retry to get its result.",
                    Map.of("Retry-After", "1")));
        }
        if (error instanceof ApiProblem problem && problem.problemCode().status().is4xxClientError()) {
            return keys.forget(claim).then(Mono.error(error));
        }
        if (DatabaseErrors.isBadCharacter(error)) {
            return keys.forget(claim).then(Mono.error(ApiProblem.invalidRequest(
                    "The request contains characters that cannot be stored (such as U+0000 or invalid UTF-8).")));
        }
        Throwable answer = error instanceof GatewayException
                ? new ApiProblem(ProblemCode.GATEWAY_ERROR,
                "The payment gateway did not answer as expected; retry with the same Idempotency-Key.")
                : error;
        log.warn("Idempotent request {} (merchant {}, resumed at {}) failed: {}", claim.request().key(),
                claim.request().merchantId(), claim.recoveryPoint(), DatabaseErrors.summary(error));
        return keys.free(claim)
                .onErrorResume(e -> {
                    freeInTheBackground(claim);
                    return Mono.empty();
                })
                .then(Mono.error(answer));
    }

    private void freeInTheBackground(KeyClaim claim) {
        keys.free(claim)
                .retryWhen(Retry.backoff(FREE_ATTEMPTS, Duration.ofMillis(200)).maxBackoff(Duration.ofSeconds(5)))
                .subscribe(null, e -> log.warn("Idempotency key {} (merchant {}) stays locked until its lock timeout: {}",
                        claim.request().key(), claim.request().merchantId(), DatabaseErrors.summary(e)));
    }
}
