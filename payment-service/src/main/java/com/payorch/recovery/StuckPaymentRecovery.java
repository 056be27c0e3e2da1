package com.payorch.recovery;

import com.payorch.gateway.ConnectorRefusedException;
import com.payorch.gateway.ConnectorRoutes;
import com.payorch.gateway.GatewayException;
import com.payorch.gateway.GatewayOutcome;
import com.payorch.gateway.GatewayUnavailableException;
import com.payorch.gateway.PaymentGateway;
import com.payorch.payments.AttemptReferences;
import com.payorch.payments.ConnectorSubmission;
import com.payorch.payments.GatewayOutcomes;
import com.payorch.payments.OutcomeResult;
import com.payorch.payments.Payment;
import com.payorch.payments.PaymentChange;
import com.payorch.payments.PaymentQueries;
import com.payorch.payments.PaymentStateChanges;
import com.payorch.payments.RetryingTransaction;
import com.payorch.payments.TransitionOrigin;
import com.payorch.payments.TransitionSource;
import com.payorch.statemachine.PaymentEvent;
import com.payorch.statemachine.PaymentStatus;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Nothing stays stuck, and nothing is given up without the connector's word. Each job acts on one attempt, the
 * payment's current one when it looked, and what it learns is applied only while that attempt is still current
 * ({@link GatewayOutcomes}):
 * <ul>
 *   <li>PENDING (the submit never reached the connector, or the server died mid-request): submitted again with the
 *       same idempotency key, so never charged twice, while the connector still honours the key;</li>
 *   <li>PENDING past {@code give-up-after}: FAILS with {@code gateway_unreachable} only on evidence that nothing was
 *       taken: the look-up answers "no such charge", or a same-key resubmission is refused definitely (or declined:
 *       that outcome is applied). Without evidence the payment stays PENDING, the connector is asked to cancel by
 *       the service's own reference (its confirmation arrives as a FAILED outcome), the attempt is marked as needing
 *       attention, and it is asked again with backoff;</li>
 *   <li>PROCESSING with no outcome: settled with what the connector says of the attempt's charge, and resubmitted
 *       when the connector holds no charge for it;</li>
 *   <li>past the connector's idempotency-key lifetime (PENDING or PROCESSING): never resubmitted (the same key would
 *       make a new charge); settled by a look-up by the recorded reference, else cancelled by reference, else marked
 *       as needing attention.</li>
 * </ul>
 */
@Component
public class StuckPaymentRecovery {

    static final String GATEWAY_UNREACHABLE = "gateway_unreachable";
    static final String CANCEL_REQUESTED = AttemptReferences.CANCEL_REQUESTED;
    static final String PAST_KEY_LIFETIME = "past the connector's idempotency-key lifetime; nothing found";
    static final String NO_EVIDENCE = "give-up-after passed without the connector's word that nothing was taken";
    private static final Logger log = LoggerFactory.getLogger(StuckPaymentRecovery.class);

    private final PaymentQueries payments;
    private final StuckPayments stuckPayments;
    private final PaymentGateway gateway;
    private final ConnectorSubmission submission;
    private final GatewayOutcomes outcomes;
    private final PaymentStateChanges stateChanges;
    private final RetryingTransaction transaction;
    private final WorkClaims claims;
    private final RecoveryProperties properties;
    private final ConnectorRoutes routes;
    private final AttemptReferences attempts;

    public StuckPaymentRecovery(PaymentQueries payments, StuckPayments stuckPayments, PaymentGateway gateway,
                                ConnectorSubmission submission,
                                GatewayOutcomes outcomes, PaymentStateChanges stateChanges,
                                RetryingTransaction transaction, WorkClaims claims, RecoveryProperties properties,
                                ConnectorRoutes routes, AttemptReferences attempts) {
        this.payments = payments;
        this.stuckPayments = stuckPayments;
        this.gateway = gateway;
        this.submission = submission;
        this.outcomes = outcomes;
        this.stateChanges = stateChanges;
        this.transaction = transaction;
        this.claims = claims;
        this.properties = properties;
        this.routes = routes;
        this.attempts = attempts;
    }

    /** One look for stuck PENDING payments; run every `payments.recovery.interval` by {@link RecoveryJobs}. */
    public Mono<Long> resubmitPending() {
        return claimed(PaymentStatus.PENDING, "resubmit", properties.pendingAfter())
                .concatMap(stuck -> pending(stuck)
                        .onErrorResume(GatewayException.class, e -> {
                            log.info("Payment {} still cannot be submitted: {}", stuck.payment().id(), e.getMessage());
                            return Mono.empty();
                        }))
                .count()
                .onErrorResume(e -> logged("resubmitting PENDING payments", e));
    }

    private Mono<Payment> pending(StuckPayments.Stuck stuck) {
        if (stuck.payment().hold().cancelRequested()) {
            return Mono.empty(); // a hold being released is never submitted again: the cancel's recovery settles it
        }
        if (CANCEL_REQUESTED.equals(stuck.attention())) {
            // Never resubmit what the connector was asked to cancel: only its word (a look-up, a notification) settles it.
            return lookUp(stuck).flatMap(found -> found.isPresent() ? settle(found.get(), TransitionSource.RECOVERY)
                    : stuck.overdue() ? failConfirmed(stuck, "the connector holds no charge for the attempt")
                    : Mono.empty());
        }
        if (stuck.overdue()) {
            return giveUp(stuck);
        }
        return keyHonoured(stuck) ? resubmitOrAsk(stuck) : pastKeyLifetime(stuck);
    }

    /** One look for stuck PROCESSING payments; run every `payments.recovery.interval` by {@link RecoveryJobs}. */
    public Mono<Long> reconcileProcessing() {
        return claimed(PaymentStatus.PROCESSING, "reconcile", properties.processingAfter())
                .concatMap(stuck -> gateway.find(stuck.chargeRequest())
                        .flatMap(outcome -> settle(outcome, TransitionSource.RECONCILER))
                        // No charge at the connector for this attempt: submit it (same key) while the connector
                        // honours the key; past that, the same key would be a new charge.
                        .switchIfEmpty(Mono.defer(() -> stuck.payment().hold().cancelRequested() ? Mono.empty()
                                : keyHonoured(stuck) ? resubmit(stuck.payment())
                                : cancelOrAsk(stuck, PAST_KEY_LIFETIME)))
                        .onErrorResume(GatewayException.class, e -> {
                            log.info("Gateway could not say what became of payment {}: {}", stuck.payment().id(),
                                    e.getMessage());
                            return keyHonoured(stuck) ? Mono.empty()
                                    : attention(stuck, PAST_KEY_LIFETIME + " (the look-up failed: " + e.getMessage()
                                            + ")");
                        }))
                .count()
                .onErrorResume(e -> logged("reconciling PROCESSING payments", e));
    }

    /**
     * Resubmits (same key); when that answer is ambiguous too, asks the connector what became of the attempt (which
     * cannot charge). Stripe saves a 500 that came after its charge as the key's answer and replays it for every
     * resubmission, so only the look-up (or the webhook) can settle such a payment before give-up-after.
     */
    private Mono<Payment> resubmitOrAsk(StuckPayments.Stuck stuck) {
        return resubmit(stuck.payment()).onErrorResume(
                e -> e instanceof GatewayException && !(e instanceof GatewayUnavailableException),
                ambiguous -> gateway.find(stuck.chargeRequest())
                        .onErrorResume(GatewayException.class, lookUpFailed -> Mono.empty())
                        .flatMap(outcome -> settle(outcome, TransitionSource.RECOVERY))
                        .switchIfEmpty(Mono.error(ambiguous)));
    }

    private Mono<Payment> resubmit(Payment payment) {
        return submission.submit(payment).flatMap(outcome -> settle(outcome, TransitionSource.RECOVERY));
    }

    /**
     * The attempt has been PENDING past {@code give-up-after}. A charge the connector holds is applied; the
     * connector's confirmed "no such charge" FAILS the payment (which frees its booking). A look-up that gives no
     * evidence is followed by a same-key resubmission while the key is honoured (a definite refusal is evidence, an
     * outcome is applied), else by a cancel by reference; the payment then stays PENDING and needs attention.
     */
    private Mono<Payment> giveUp(StuckPayments.Stuck stuck) {
        return lookUp(stuck)
                .flatMap(found -> found.isPresent() ? settle(found.get(), TransitionSource.RECOVERY)
                        : failConfirmed(stuck, "the connector holds no charge for the attempt"))
                .onErrorResume(GatewayException.class, noEvidence -> {
                    String why = NO_EVIDENCE + " (the look-up failed: " + noEvidence.getMessage() + ")";
                    return keyHonoured(stuck) ? resubmitForEvidence(stuck, why) : cancelOrAsk(stuck, why);
                });
    }

    private Mono<Payment> resubmitForEvidence(StuckPayments.Stuck stuck, String why) {
        return resubmit(stuck.payment())
                .onErrorResume(ConnectorRefusedException.class, refused -> failConfirmed(stuck,
                        "a same-key resubmission was refused: " + refused.getMessage()))
                .onErrorResume(e -> e instanceof GatewayException && !(e instanceof ConnectorRefusedException),
                        noAnswer -> cancelOrAsk(stuck, why + "; a resubmission settled nothing: "
                                + noAnswer.getMessage()));
    }

    /** Past the key lifetime, before give-up-after: never resubmitted; a charge the look-up finds is applied. */
    private Mono<Payment> pastKeyLifetime(StuckPayments.Stuck stuck) {
        return lookUp(stuck)
                .flatMap(found -> found.isPresent() ? settle(found.get(), TransitionSource.RECOVERY)
                        : cancelOrAsk(stuck, PAST_KEY_LIFETIME))
                .onErrorResume(GatewayException.class, e -> cancelOrAsk(stuck, PAST_KEY_LIFETIME
                        + " (the look-up failed: " + e.getMessage() + ")"));
    }

    /**
     * Asks the connector to cancel whatever the attempt may have authorised, by the service's own reference; its
     * confirmation comes later as a FAILED outcome. A connector that cannot cancel (or does not answer) leaves
     * {@code why} as the reason a person must look.
     */
    private Mono<Payment> cancelOrAsk(StuckPayments.Stuck stuck, String why) {
        if (CANCEL_REQUESTED.equals(stuck.attention())) {
            return Mono.empty(); // asked already: its confirmation, or a person, settles it
        }
        // Recorded before the request: the connector's confirmation can arrive before its answer, and it binds to
        // the attempt awaiting a cancel.
        log.warn("Payment {} attempt {}: {} ({})", stuck.payment().id(), stuck.payment().attempt(), CANCEL_REQUESTED,
                why);
        return attention(stuck, CANCEL_REQUESTED)
                .then(Mono.defer(() -> gateway.cancelByReference(stuck.chargeRequest())))
                .then(Mono.<Payment>empty())
                .onErrorResume(GatewayException.class, e -> attention(stuck,
                        e instanceof ConnectorRefusedException ? why : why + "; cancel by reference failed: "
                                + e.getMessage()));
    }

    private Mono<Payment> attention(StuckPayments.Stuck stuck, String why) {
        log.warn("Payment {} attempt {} needs attention: {}", stuck.payment().id(), stuck.payment().attempt(), why);
        return attempts.needsAttention(stuck.payment().id(), stuck.payment().attempt(), why).then(Mono.empty());
    }

    /** What the connector says of the attempt: an outcome, or an empty Optional when it confirms no charge. */
    private Mono<Optional<GatewayOutcome>> lookUp(StuckPayments.Stuck stuck) {
        return gateway.find(stuck.chargeRequest()).map(Optional::of).defaultIfEmpty(Optional.empty());
    }

    /** Whether the attempt's connector still honours its idempotency key (no lifetime known: it does). */
    private boolean keyHonoured(StuckPayments.Stuck stuck) {
        return routes.keyLifetime(stuck.payment().connector())
                .map(lifetime -> stuck.atConnector().compareTo(lifetime) < 0)
                .orElse(true);
    }

    /** FAILS the still-current PENDING attempt with gateway_unreachable: the connector confirmed nothing was taken. */
    private Mono<Payment> failConfirmed(StuckPayments.Stuck stuck, String evidence) {
        Payment payment = stuck.payment();
        return transaction.run(() -> payments.findAnyMerchant(payment.id())
                        .filter(current -> current.status() == PaymentStatus.PENDING
                                && current.attempt() == payment.attempt())
                        .flatMap(current -> stateChanges.apply(current, PaymentEvent.FAIL,
                                new TransitionOrigin(TransitionSource.RECOVERY, "give-up-after"),
                                GATEWAY_UNREACHABLE, null))
                        .map(PaymentChange::payment))
                .doOnNext(failed -> log.warn("Payment {} gave up after {}: {} ({})", failed.id(),
                        properties.giveUpAfter(), GATEWAY_UNREACHABLE, evidence));
    }

    /** Payments stuck in `status`, each leased by this instance for {@link #lease}. */
    private Flux<StuckPayments.Stuck> claimed(PaymentStatus status, String kind, Duration quietFor) {
        return stuckPayments.find(status, quietFor, properties.giveUpAfter(), kind, properties.batchSize())
                .concatMap(stuck -> claims.claim(kind, stuck.payment().id(), lease(status, quietFor, stuck))
                        .filter(Boolean::booleanValue)
                        .map(claimed -> stuck));
    }

    /**
     * How long a look leaves the payment alone. PENDING: one quiet period (give-up-after must be reached on time).
     * PROCESSING: half the time its attempt has waited, at least one quiet period, at most
     * {@code reconcile-backoff-max}. A payment the connector cannot settle (an Adyen `Received` whose notification
     * never comes: resubmitting only brings back `Received`) is then looked at less and less often, instead of
     * taking every look from the newer payments a look-up can settle (oldest first, a batch at a time, it did:
     * docs/reliability.md, "Noticed, left alone").
     */
    static Duration lease(PaymentStatus status, Duration quietFor, StuckPayments.Stuck stuck, Duration backoffMax) {
        return lease(status, quietFor, stuck, backoffMax, false);
    }

    /**
     * As above; a PENDING payment waiting for evidence (past give-up-after, or past its connector's key lifetime)
     * backs off the same way: a connector that cannot answer is not asked every few seconds for days.
     */
    static Duration lease(PaymentStatus status, Duration quietFor, StuckPayments.Stuck stuck, Duration backoffMax,
                          boolean pastKeyLifetime) {
        boolean waitingForEvidence = status == PaymentStatus.PENDING && (stuck.overdue() || pastKeyLifetime);
        if (status != PaymentStatus.PROCESSING && !waitingForEvidence) {
            return quietFor;
        }
        Duration half = stuck.waited().dividedBy(2);
        Duration backedOff = half.compareTo(backoffMax) > 0 ? backoffMax : half;
        return backedOff.compareTo(quietFor) > 0 ? backedOff : quietFor;
    }

    private Duration lease(PaymentStatus status, Duration quietFor, StuckPayments.Stuck stuck) {
        return lease(status, quietFor, stuck, properties.reconcileBackoffMax(), !keyHonoured(stuck));
    }

    /** Applies the outcome against the payment as re-read in the transaction (ignored if its attempt is superseded). */
    private Mono<Payment> settle(GatewayOutcome outcome, TransitionSource source) {
        return transaction.run(() -> payments.findAnyMerchant(outcome.paymentId())
                        .flatMap(current -> outcomes.apply(current, outcome,
                                new TransitionOrigin(source, outcome.reference()))))
                .filter(result -> result.kind() == OutcomeResult.Kind.APPLIED)
                .map(OutcomeResult::payment)
                .doOnNext(payment -> log.info("Recovery moved payment {} to {} ({})", payment.id(), payment.status(),
                        source.value()));
    }

    private static Mono<Long> logged(String what, Throwable e) {
        log.warn("Recovery job failed while {}; the next run tries again: {}", what, e.toString());
        return Mono.just(0L);
    }
}
