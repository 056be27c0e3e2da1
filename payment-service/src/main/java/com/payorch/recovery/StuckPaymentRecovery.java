package com.payorch.recovery;

import com.payorch.gateway.GatewayException;
import com.payorch.gateway.GatewayOutcome;
import com.payorch.gateway.GatewayUnavailableException;
import com.payorch.gateway.PaymentGateway;
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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Nothing stays stuck. Each job acts on one attempt, the payment's current one when it looked, and what it learns
 * is applied only while that attempt is still current ({@link GatewayOutcomes}):
 * <ul>
 *   <li>PENDING (the submit never reached the connector, or the server died mid-request): submitted again with the
 *       same idempotency key, so never charged twice; after {@code give-up-after} the payment FAILS with
 *       {@code gateway_unreachable} unless the connector turns out to hold a charge for the attempt;</li>
 *   <li>PROCESSING with no outcome: settled with what the connector says of the attempt's charge, and resubmitted
 *       when the connector holds no charge for it (never left PROCESSING).</li>
 * </ul>
 */
@Component
public class StuckPaymentRecovery {

    static final String GATEWAY_UNREACHABLE = "gateway_unreachable";
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

    public StuckPaymentRecovery(PaymentQueries payments, StuckPayments stuckPayments, PaymentGateway gateway,
                                ConnectorSubmission submission,
                                GatewayOutcomes outcomes, PaymentStateChanges stateChanges,
                                RetryingTransaction transaction, WorkClaims claims, RecoveryProperties properties) {
        this.payments = payments;
        this.stuckPayments = stuckPayments;
        this.gateway = gateway;
        this.submission = submission;
        this.outcomes = outcomes;
        this.stateChanges = stateChanges;
        this.transaction = transaction;
        this.claims = claims;
        this.properties = properties;
    }

    /** One look for stuck PENDING payments; run every `payments.recovery.interval` by {@link RecoveryJobs}. */
    public Mono<Long> resubmitPending() {
        return claimed(PaymentStatus.PENDING, "resubmit", properties.pendingAfter())
                .concatMap(stuck -> (stuck.overdue() ? giveUp(stuck.payment()) : resubmitOrAsk(stuck.payment()))
                        .onErrorResume(GatewayException.class, e -> {
                            log.info("Payment {} still cannot be submitted: {}", stuck.payment().id(), e.getMessage());
                            return Mono.empty();
                        }))
                .count()
                .onErrorResume(e -> logged("resubmitting PENDING payments", e));
    }

    /** One look for stuck PROCESSING payments; run every `payments.recovery.interval` by {@link RecoveryJobs}. */
    public Mono<Long> reconcileProcessing() {
        return claimed(PaymentStatus.PROCESSING, "reconcile", properties.processingAfter())
                .concatMap(stuck -> gateway.find(stuck.payment().chargeRequest())
                        .flatMap(outcome -> settle(outcome, TransitionSource.RECONCILER))
                        // No charge at the connector for this attempt: submit it (same key), never leave it PROCESSING.
                        .switchIfEmpty(Mono.defer(() -> resubmit(stuck.payment())))
                        .onErrorResume(GatewayException.class, e -> {
                            log.info("Gateway could not say what became of payment {}: {}", stuck.payment().id(),
                                    e.getMessage());
                            return Mono.empty();
                        }))
                .count()
                .onErrorResume(e -> logged("reconciling PROCESSING payments", e));
    }

    /**
     * Resubmits (same key); when that answer is ambiguous too, asks the connector what became of the attempt (which
     * cannot charge). Stripe saves a 500 that came after its charge as the key's answer and replays it for every
     * resubmission, so only the look-up (or the webhook) can settle such a payment before give-up-after.
     */
    private Mono<Payment> resubmitOrAsk(Payment payment) {
        return resubmit(payment).onErrorResume(
                e -> e instanceof GatewayException && !(e instanceof GatewayUnavailableException),
                ambiguous -> gateway.find(payment.chargeRequest())
                        .onErrorResume(GatewayException.class, lookUpFailed -> Mono.empty())
                        .flatMap(outcome -> settle(outcome, TransitionSource.RECOVERY))
                        .switchIfEmpty(Mono.error(ambiguous)));
    }

    private Mono<Payment> resubmit(Payment payment) {
        return submission.submit(payment).flatMap(outcome -> settle(outcome, TransitionSource.RECOVERY));
    }

    /**
     * The attempt has been PENDING past {@code give-up-after}: if the connector holds a charge for it after all,
     * that outcome is applied; otherwise the payment FAILS, which frees its booking.
     */
    private Mono<Payment> giveUp(Payment payment) {
        return gateway.find(payment.chargeRequest())
                .onErrorResume(GatewayException.class, e -> Mono.empty())
                .flatMap(outcome -> settle(outcome, TransitionSource.RECOVERY))
                .switchIfEmpty(Mono.defer(() -> transaction.run(() -> payments.findAnyMerchant(payment.id())
                                .filter(current -> current.status() == PaymentStatus.PENDING
                                        && current.attempt() == payment.attempt())
                                .flatMap(current -> stateChanges.apply(current, PaymentEvent.FAIL,
                                        new TransitionOrigin(TransitionSource.RECOVERY, "give-up-after"),
                                        GATEWAY_UNREACHABLE, null))
                                .map(PaymentChange::payment))
                        .doOnNext(failed -> log.warn("Payment {} gave up after {}: {}", failed.id(),
                                properties.giveUpAfter(), GATEWAY_UNREACHABLE))));
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
        if (status != PaymentStatus.PROCESSING) {
            return quietFor;
        }
        Duration half = stuck.waited().dividedBy(2);
        Duration backedOff = half.compareTo(backoffMax) > 0 ? backoffMax : half;
        return backedOff.compareTo(quietFor) > 0 ? backedOff : quietFor;
    }

    private Duration lease(PaymentStatus status, Duration quietFor, StuckPayments.Stuck stuck) {
        return lease(status, quietFor, stuck, properties.reconcileBackoffMax());
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
