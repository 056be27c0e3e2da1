package com.payorch.recovery;

import com.payorch.gateway.ChargeRequest;
import com.payorch.gateway.GatewayCharge;
import com.payorch.gateway.GatewayException;
import com.payorch.gateway.PaymentGateway;
import com.payorch.payments.Payment;
import com.payorch.payments.PaymentChange;
import com.payorch.payments.PaymentStateChanges;
import com.payorch.payments.PaymentStore;
import com.payorch.payments.RetryingTransaction;
import com.payorch.payments.TransitionOrigin;
import com.payorch.payments.TransitionSource;
import com.payorch.statemachine.PaymentEvent;
import com.payorch.statemachine.PaymentStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Nothing stays stuck: PENDING payments that were never submitted (the gateway was unreachable, or the server died
 * mid-request) are submitted again with the same gateway idempotency key, so never charged twice; PROCESSING
 * payments whose outcome never arrived are settled with what the gateway says about their charge.
 */
@Component
public class StuckPaymentRecovery {

    private static final Logger log = LoggerFactory.getLogger(StuckPaymentRecovery.class);

    private final PaymentStore payments;
    private final PaymentGateway gateway;
    private final PaymentStateChanges stateChanges;
    private final RetryingTransaction transaction;
    private final WorkClaims claims;
    private final RecoveryProperties properties;

    public StuckPaymentRecovery(PaymentStore payments, PaymentGateway gateway, PaymentStateChanges stateChanges,
                                RetryingTransaction transaction, WorkClaims claims, RecoveryProperties properties) {
        this.payments = payments;
        this.gateway = gateway;
        this.stateChanges = stateChanges;
        this.transaction = transaction;
        this.claims = claims;
        this.properties = properties;
    }

    /** One look for stuck PENDING payments; run every `payments.recovery.interval` by {@link RecoveryJobs}. */
    public Mono<Long> resubmitPending() {
        return claimed(PaymentStatus.PENDING, "resubmit", properties.pendingAfter())
                .concatMap(payment -> gateway.submit(new ChargeRequest(payment.id(), payment.attempt(),
                                payment.amount(), payment.currency(), payment.paymentMethod()))
                        .flatMap(charge -> settle(payment.id(), PaymentStatus.PENDING, PaymentEvent.SUBMIT,
                                TransitionSource.RECOVERY, charge.id(), null))
                        .onErrorResume(GatewayException.class, e -> {
                            log.info("Payment {} still cannot be submitted: {}", payment.id(), e.getMessage());
                            return Mono.empty();
                        }))
                .count()
                .onErrorResume(e -> logged("resubmitting PENDING payments", e));
    }

    /** One look for stuck PROCESSING payments; run every `payments.recovery.interval` by {@link RecoveryJobs}. */
    public Mono<Long> reconcileProcessing() {
        return claimed(PaymentStatus.PROCESSING, "reconcile", properties.processingAfter())
                .concatMap(payment -> gateway.findCharge(payment.id(), payment.attempt())
                        .flatMap(charge -> outcomeOf(payment, charge))
                        .onErrorResume(GatewayException.class, e -> {
                            log.info("Gateway could not say what became of payment {}: {}", payment.id(), e.getMessage());
                            return Mono.empty();
                        }))
                .count()
                .onErrorResume(e -> logged("reconciling PROCESSING payments", e));
    }

    private Mono<Payment> outcomeOf(Payment payment, GatewayCharge charge) {
        return switch (charge.status()) {
            case "succeeded" -> settle(payment.id(), PaymentStatus.PROCESSING, PaymentEvent.SUCCEED,
                    TransitionSource.RECONCILER, charge.id(), null);
            case "failed" -> settle(payment.id(), PaymentStatus.PROCESSING, PaymentEvent.FAIL,
                    TransitionSource.RECONCILER, charge.id(),
                    charge.failureReason() != null ? charge.failureReason() : "failed");
            default -> Mono.empty(); // the gateway has no outcome yet: look again next time
        };
    }

    /** Payments stuck in `status`, each leased by this instance for one quiet period. */
    private Flux<Payment> claimed(PaymentStatus status, String kind, java.time.Duration quietFor) {
        return payments.findStuck(status, quietFor, kind, properties.batchSize())
                .concatMap(payment -> claims.claim(kind, payment.id(), quietFor)
                        .filter(Boolean::booleanValue)
                        .map(claimed -> payment));
    }

    /** Applies `event` if the payment is still in `expected` (re-read in the transaction); otherwise leaves it. */
    private Mono<Payment> settle(String paymentId, PaymentStatus expected, PaymentEvent event, TransitionSource source,
                                 String sourceId, String failureReason) {
        return transaction.run(() -> payments.findAnyMerchant(paymentId)
                        .filter(payment -> payment.status() == expected)
                        .flatMap(payment -> stateChanges.apply(payment, event, new TransitionOrigin(source, sourceId),
                                failureReason))
                        .map(PaymentChange::payment))
                .doOnNext(payment -> log.info("Recovery moved payment {} to {} ({})", payment.id(), payment.status(),
                        source.value()));
    }

    private static Mono<Long> logged(String what, Throwable e) {
        log.warn("Recovery job failed while {}; the next run tries again: {}", what, e.toString());
        return Mono.just(0L);
    }
}
