package com.payorch.webhooks;

import com.payorch.payments.Payment;
import com.payorch.payments.PaymentChange;
import com.payorch.payments.PaymentMetrics;
import com.payorch.payments.PaymentStateChanges;
import com.payorch.payments.PaymentStore;
import com.payorch.payments.RetryingTransaction;
import com.payorch.payments.TransitionOrigin;
import com.payorch.payments.TransitionSource;
import com.payorch.statemachine.PaymentEvent;
import com.payorch.statemachine.PaymentStatus;
import com.payorch.support.Timestamps;
import com.payorch.web.ApiProblem;
import java.time.Clock;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Applies a verified gateway webhook to its payment. The receipt (keyed by webhook id) and the state change it
 * causes commit in one transaction, through the same write path as API requests; a lost optimistic race re-runs
 * the whole transaction against the fresh row.
 */
@Component
public class WebhookApplier {

    private static final Logger log = LoggerFactory.getLogger(WebhookApplier.class);

    private final PaymentStore payments;
    private final PaymentStateChanges stateChanges;
    private final WebhookReceipts receipts;
    private final RetryingTransaction transaction;
    private final PaymentMetrics metrics;
    private final Clock clock;

    public WebhookApplier(PaymentStore payments, PaymentStateChanges stateChanges, WebhookReceipts receipts,
                          RetryingTransaction transaction, PaymentMetrics metrics, Clock clock) {
        this.payments = payments;
        this.stateChanges = stateChanges;
        this.receipts = receipts;
        this.transaction = transaction;
        this.metrics = metrics;
        this.clock = clock;
    }

    public Mono<WebhookOutcome> apply(String gateway, String webhookId, GatewayWebhook webhook) {
        return payments.findAnyMerchant(webhook.paymentId())
                .switchIfEmpty(Mono.error(() -> ApiProblem.notFound("No payment " + webhook.paymentId() + ".")))
                .flatMap(payment -> transaction.run(() -> applyOnce(gateway, webhookId, webhook))
                        .doOnNext(outcome -> {
                            metrics.webhook(outcome.value());
                            log.info("webhook={} type={} payment={} merchant={} outcome={}", webhookId,
                                    webhook.type(), payment.id(), payment.merchantId(), outcome.value());
                        }));
    }

    private Mono<WebhookOutcome> applyOnce(String gateway, String webhookId, GatewayWebhook webhook) {
        return receipts.claim(webhookId, gateway, webhook, Timestamps.now(clock))
                .flatMap(claimed -> !claimed
                        ? Mono.just(WebhookOutcome.DUPLICATE)
                        : payments.findAnyMerchant(webhook.paymentId())
                                .flatMap(payment -> decide(webhookId, webhook, payment)));
    }

    private Mono<WebhookOutcome> decide(String webhookId, GatewayWebhook webhook, Payment payment) {
        if (payment.amount() != webhook.amount() || !payment.currency().equals(webhook.currency())) {
            log.warn("Anomaly: webhook={} payment={} merchant={} reports {} {} but the payment is {} {}", webhookId,
                    payment.id(), payment.merchantId(), webhook.amount(), webhook.currency(), payment.amount(),
                    payment.currency());
            return receipts.recordOutcome(webhookId, WebhookOutcome.REJECTED, "amount or currency mismatch")
                    .thenReturn(WebhookOutcome.REJECTED);
        }
        List<PaymentEvent> steps = stepsFor(webhook.type(), payment.status());
        if (steps.isEmpty()) {
            return receipts.recordOutcome(webhookId, WebhookOutcome.IGNORED,
                            webhook.type() + " for a " + payment.status() + " payment")
                    .thenReturn(WebhookOutcome.IGNORED);
        }
        TransitionOrigin origin = new TransitionOrigin(TransitionSource.WEBHOOK, webhookId);
        String failureReason = webhook.failureReason() != null ? webhook.failureReason() : "failed";
        return Flux.fromIterable(steps)
                .reduce(Mono.just(payment), (current, event) ->
                        current.flatMap(p -> stateChanges.apply(p, event, origin, failureReason)
                                .map(PaymentChange::payment)))
                .flatMap(last -> last)
                .then(receipts.recordOutcome(webhookId, WebhookOutcome.APPLIED, null))
                .thenReturn(WebhookOutcome.APPLIED);
    }

    /**
     * The state-machine events a gateway report implies from the payment's status. Nothing means the report is
     * late, out of order or contradicts a terminal state: it is ignored.
     */
    static List<PaymentEvent> stepsFor(String type, PaymentStatus status) {
        return switch (type) {
            case GatewayWebhook.PROCESSING -> status == PaymentStatus.PENDING ? List.of(PaymentEvent.SUBMIT) : List.of();
            case GatewayWebhook.SUCCEEDED -> switch (status) {
                case PENDING -> List.of(PaymentEvent.SUBMIT, PaymentEvent.SUCCEED);
                case PROCESSING -> List.of(PaymentEvent.SUCCEED);
                default -> List.of();
            };
            case GatewayWebhook.FAILED -> status == PaymentStatus.PENDING || status == PaymentStatus.PROCESSING
                    ? List.of(PaymentEvent.FAIL) : List.of();
            default -> List.of();
        };
    }
}
