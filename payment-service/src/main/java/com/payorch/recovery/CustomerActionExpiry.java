package com.payorch.recovery;

import com.payorch.gateway.GatewayException;
import com.payorch.gateway.GatewayOutcome;
import com.payorch.gateway.GatewayStatus;
import com.payorch.gateway.PaymentGateway;
import com.payorch.payments.AttemptReferences;
import com.payorch.payments.CustomerAction;
import com.payorch.payments.CustomerActionProperties;
import com.payorch.payments.GatewayOutcomes;
import com.payorch.payments.InvalidTransition;
import com.payorch.payments.OutcomeResult;
import com.payorch.payments.Payment;
import com.payorch.payments.PaymentQueries;
import com.payorch.payments.PaymentStateChanges;
import com.payorch.payments.RetryingTransaction;
import com.payorch.payments.TransitionOrigin;
import com.payorch.payments.TransitionSource;
import com.payorch.statemachine.PaymentStatus;
import java.util.EnumSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * A customer who never comes back does not hold a payment (and its booking) for ever: a payment REQUIRES_ACTION for
 * longer than {@code payments.customer-action.expires-after} gets a cancel recorded with reason
 * {@value CustomerAction#AUTHENTICATION_EXPIRED} (the same versioned write a hold's cancel uses), which is then sent
 * to its connector (key {@code <attempt key>-cancel}). Only the connector's confirmation, in the answer or by its
 * notification, FAILS the payment {@code authentication_expired} ({@code Payment.actionExpired()} is what
 * {@code GatewayOutcomes} reads); the hold-cancels job sends the cancel again until then.
 * <p>A cancel the connector does not settle (refused: the customer paid just before; or no confirmation yet) is
 * followed by a look-up of the attempt: a settled answer (a success, an authorisation, a failure, a cancellation) is
 * applied like any outcome, so a customer who paid has a COMPLETED payment, and a success reported for a payment that
 * already FAILED is an orphaned charge given back. Still undecided answers change nothing: the next look asks again.
 * <p>Each payment is leased for a look ({@link WorkClaims}), so instances never act on the same payment at once; the
 * recorded cancel is one versioned write against the payment as re-read, so a customer's completion or the
 * connector's webhook racing it wins or loses cleanly.
 */
@Component
public class CustomerActionExpiry {

    static final String KIND = "customer-action-expiry";
    static final TransitionOrigin ORIGIN = new TransitionOrigin(TransitionSource.RECOVERY, KIND);

    /** A look-up answer that settles the attempt (anything else still waits for the customer or the connector). */
    private static final Set<GatewayStatus> SETTLED = EnumSet.of(GatewayStatus.SUCCEEDED, GatewayStatus.AUTHORIZED,
            GatewayStatus.FAILED, GatewayStatus.CANCELLED);

    private static final Logger log = LoggerFactory.getLogger(CustomerActionExpiry.class);

    private final OverdueCustomerActions overdue;
    private final CustomerActionProperties customerAction;
    private final RecoveryProperties properties;
    private final PaymentQueries payments;
    private final PaymentStateChanges stateChanges;
    private final RetryingTransaction transaction;
    private final HoldSends sends;
    private final PaymentGateway gateway;
    private final AttemptReferences attempts;
    private final GatewayOutcomes outcomes;
    private final WorkClaims claims;
    private final CustomerActionMetrics metrics;

    CustomerActionExpiry(OverdueCustomerActions overdue, CustomerActionProperties customerAction,
                         RecoveryProperties properties, PaymentQueries payments, PaymentStateChanges stateChanges,
                         RetryingTransaction transaction, HoldSends sends, PaymentGateway gateway,
                         AttemptReferences attempts, GatewayOutcomes outcomes, WorkClaims claims,
                         CustomerActionMetrics metrics) {
        this.overdue = overdue;
        this.customerAction = customerAction;
        this.properties = properties;
        this.payments = payments;
        this.stateChanges = stateChanges;
        this.transaction = transaction;
        this.sends = sends;
        this.gateway = gateway;
        this.attempts = attempts;
        this.outcomes = outcomes;
        this.claims = claims;
        this.metrics = metrics;
    }

    /** One look: the gauges counted, a batch of overdue payments expired; how many were looked at. */
    public Mono<Long> expireOverdue() {
        return overdue.count(customerAction.expiresAfter())
                .doOnNext(metrics::counted)
                .thenMany(overdue.overdue(customerAction.expiresAfter(), KIND, properties.batchSize()))
                .concatMap(payment -> claims.claim(KIND, payment.id(), properties.pendingAfter())
                        .filter(Boolean::booleanValue)
                        .flatMap(claimed -> expire(payment))
                        .onErrorResume(e -> {
                            log.warn("Payment {}: its customer action could not be expired now ({}); the next run"
                                    + " tries again", payment.id(), e.toString());
                            return Mono.empty();
                        }))
                .count()
                .onErrorResume(e -> {
                    log.warn("The customer-action expiry job failed; the next run tries again: {}", e.toString());
                    return Mono.just(0L);
                });
    }

    /** The cancel recorded (once) and sent; a look-up of the attempt when that settled nothing. */
    Mono<Payment> expire(Payment found) {
        return recordCancel(found)
                .flatMap(cancelling -> sends.cancel(cancelling, outcome -> ORIGIN)
                        .switchIfEmpty(Mono.defer(() -> lookUp(cancelling))));
    }

    private Mono<Payment> recordCancel(Payment found) {
        return transaction.run(() -> payments.findAnyMerchant(found.id())
                        .filter(CustomerActionExpiry::stillWaiting)
                        .flatMap(current -> stateChanges.requestCancel(current, CustomerAction.AUTHENTICATION_EXPIRED)
                                .map(recorded -> new Recorded(recorded, !current.hold().cancelRequested()))))
                .onErrorResume(InvalidTransition.class, lost -> Mono.empty()) // the payment moved on meanwhile
                .doOnNext(recorded -> {
                    if (recorded.first()) { // counted once committed, not per try of the transaction
                        metrics.expired();
                        log.info("Payment {}: its customer did not act since {}; its attempt is cancelled at {}"
                                        + " (merchant {})", recorded.payment().id(),
                                recorded.payment().action().requiredAt(), recorded.payment().connector(),
                                recorded.payment().merchantId());
                    }
                })
                .map(Recorded::payment);
    }

    /** The payment with the expiry's cancel recorded; {@code first}: by this look (not by an earlier one). */
    private record Recorded(Payment payment, boolean first) {
    }

    /** What the connector holds for the attempt, applied when it settles it; nothing when it cannot tell. */
    private Mono<Payment> lookUp(Payment cancelling) {
        return attempts.referenceOf(cancelling.id(), cancelling.attempt())
                .map(reference -> cancelling.chargeRequest().withReference(reference))
                .defaultIfEmpty(cancelling.chargeRequest())
                .flatMap(gateway::find)
                .filter(CustomerActionExpiry::settles)
                .flatMap(this::applied)
                .onErrorResume(GatewayException.class, e -> {
                    log.info("Payment {}: the look-up after its expiry's cancel got no answer ({}); the next run"
                            + " asks again", cancelling.id(), e.getMessage());
                    return Mono.empty();
                });
    }

    private Mono<Payment> applied(GatewayOutcome outcome) {
        return transaction.run(() -> payments.findAnyMerchant(outcome.paymentId())
                        .flatMap(current -> outcomes.apply(current, outcome, ORIGIN)))
                .filter(result -> result.kind() == OutcomeResult.Kind.APPLIED)
                .map(OutcomeResult::payment)
                .doOnNext(payment -> log.info("Payment {}: its connector's word after the expiry's cancel moved it to"
                        + " {}", payment.id(), payment.status()));
    }

    /** Still what the job found: waiting for its customer (a completion or a webhook may have moved it on). */
    static boolean stillWaiting(Payment current) {
        return current.status() == PaymentStatus.REQUIRES_ACTION;
    }

    /** Whether a look-up's answer settles the attempt (a PROCESSING or REQUIRES_ACTION one would move nothing on). */
    static boolean settles(GatewayOutcome outcome) {
        return SETTLED.contains(outcome.status());
    }
}
