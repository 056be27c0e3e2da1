package com.payorch.webhooks;

import com.payorch.gateway.ChargeRequest;
import com.payorch.gateway.ConnectorNotification;
import com.payorch.gateway.GatewayOutcome;
import com.payorch.gateway.PaymentGateway;
import com.payorch.gateway.RefundOutcome;
import com.payorch.payments.AttemptReferences;
import com.payorch.payments.GatewayOutcomes;
import com.payorch.payments.Payment;
import com.payorch.payments.PaymentMetrics;
import com.payorch.payments.PaymentNotFound;
import com.payorch.payments.PaymentQueries;
import com.payorch.payments.RetryingTransaction;
import com.payorch.payments.TransitionOrigin;
import com.payorch.payments.TransitionSource;
import com.payorch.refunds.Refund;
import com.payorch.refunds.RefundNotFound;
import com.payorch.refunds.RefundQueries;
import com.payorch.refunds.Refunds;
import com.payorch.support.Timestamps;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Applies one verified connector notification: matches it to the attempt whose charge it names, then, in one
 * transaction, records its receipt (a duplicate stops here) and applies the outcome through
 * {@link GatewayOutcomes}, against the payment as read in that transaction. A lost optimistic race re-runs the
 * whole transaction against the fresh row.
 */
@Component
public class WebhookApplier {

    private static final Logger log = LoggerFactory.getLogger(WebhookApplier.class);

    private final PaymentQueries payments;
    private final AttemptReferences attempts;
    private final GatewayOutcomes outcomes;
    private final WebhookReceipts receipts;
    private final RetryingTransaction transaction;
    private final PaymentMetrics metrics;
    private final Clock clock;
    private final PaymentGateway gateway;

    private final RefundQueries refundStore;
    private final Refunds refunds;

    public WebhookApplier(PaymentQueries payments, AttemptReferences attempts, GatewayOutcomes outcomes, WebhookReceipts receipts,
                          RetryingTransaction transaction, PaymentMetrics metrics, Clock clock,
                          PaymentGateway gateway, RefundQueries refundStore, Refunds refunds) {
        this.refundStore = refundStore;
        this.refunds = refunds;
        this.payments = payments;
        this.attempts = attempts;
        this.outcomes = outcomes;
        this.receipts = receipts;
        this.transaction = transaction;
        this.metrics = metrics;
        this.clock = clock;
        this.gateway = gateway;
    }

    public Mono<WebhookOutcome> apply(String connector, ConnectorNotification notification) {
        return apply(connector, null, notification);
    }

    /**
     * @param merchantId the merchant whose endpoint received the notification (a PSP's endpoints are per merchant),
     *                   or null (the sandbox's single endpoint): a notification about another merchant's payment is
     *                   not found (404), nothing recorded, and that merchant's connector account is not asked
     */
    public Mono<WebhookOutcome> apply(String connector, @Nullable String merchantId,
                                      ConnectorNotification notification) {
        if (notification.refundId() != null) {
            return applyToRefund(connector, merchantId, notification);
        }
        return resolveAttempt(connector, merchantId, notification)
                .flatMap(attempt -> transaction.run(() -> applyOnce(connector, notification, attempt))
                        .doOnNext(outcome -> {
                            metrics.webhook(outcome.value());
                            log.info("webhook={} connector={} type={} reference={} payment={} attempt={} outcome={}",
                                    notification.receiptId(), connector, notification.type(),
                                    notification.reference(), attempt.paymentId(),
                                    attempt.number().map(String::valueOf).orElse("unknown"), outcome.value());
                        }));
    }

    /**
     * A refund's outcome: bound to the refund it names (of this connector, and of the endpoint's merchant), then, in
     * one transaction, its receipt claimed (a duplicate stops here) and the outcome applied through {@link Refunds}
     * against the refund as read there (the refund state machine refuses a second outcome).
     */
    private Mono<WebhookOutcome> applyToRefund(String connector, @Nullable String merchantId,
                                               ConnectorNotification notification) {
        return refundStore.findAnyMerchant(notification.refundId())
                .filter(refund -> refund.connector().equals(connector)
                        && (merchantId == null || refund.merchantId().equals(merchantId)))
                .switchIfEmpty(Mono.error(() -> new RefundNotFound(notification.refundId())))
                .flatMap(found -> transaction.run(() -> receipts.claim(notification.receiptId(), connector,
                                notification.type(), found.paymentId(), Timestamps.now(clock))
                        .flatMap(claimed -> !claimed ? Mono.just(WebhookOutcome.DUPLICATE)
                                : refundStore.findAnyMerchant(found.id())
                                        .flatMap(refund -> decideRefund(connector, notification, refund))))
                        .doOnNext(outcome -> {
                            metrics.webhook(outcome.value());
                            log.info("webhook={} connector={} type={} refund={} payment={} outcome={}",
                                    notification.receiptId(), connector, notification.type(), found.id(),
                                    found.paymentId(), outcome.value());
                        }));
    }

    private Mono<WebhookOutcome> decideRefund(String connector, ConnectorNotification notification, Refund refund) {
        String receiptId = notification.receiptId();
        if (refund.amount() != notification.amount() || !refund.currency().equals(notification.currency())) {
            log.warn("Anomaly: webhook={} refund={} reports {} {} but the refund is {} {}", receiptId, refund.id(),
                    notification.amount(), notification.currency(), refund.amount(), refund.currency());
            return record(receiptId, WebhookOutcome.REJECTED, "amount or currency mismatch");
        }
        // The notification's reference names the charge; the refund's own id at the connector is kept as it is.
        RefundOutcome outcome = new RefundOutcome(refund.id(), connector, null, notification.status(),
                notification.failureReason());
        return refunds.apply(refund, outcome)
                .flatMap(applied -> applied.changed() ? record(receiptId, WebhookOutcome.APPLIED, null)
                        : record(receiptId, WebhookOutcome.IGNORED, notification.type() + " for a "
                                + applied.refund().status() + " refund"));
    }

    /** The payment and, when it can be told, the number of the attempt whose charge the notification names. */
    private record ResolvedAttempt(String paymentId, Optional<Integer> number) {
    }

    /**
     * By the reference recorded on an attempt; failing that (the submit's answer was lost, so the reference was
     * never recorded), among the named payment's attempts at the connector that have no reference yet
     * ({@link #attemptWithoutReference}). A payment that does not exist is 404; a charge no attempt can have leaves
     * the number unknown (ignored).
     */
    private Mono<ResolvedAttempt> resolveAttempt(String connector, @Nullable String merchantId,
                                                 ConnectorNotification notification) {
        return attempts.findAttemptByReference(connector, notification.reference())
                .flatMap(found -> merchantId == null ? Mono.just(found)
                        : payments.findAnyMerchant(found.getKey())
                                .filter(payment -> payment.merchantId().equals(merchantId))
                                .map(payment -> found)
                                .switchIfEmpty(Mono.error(() -> new PaymentNotFound(notification.reference()))))
                .map(found -> new ResolvedAttempt(found.getKey(), Optional.of(found.getValue())))
                .switchIfEmpty(Mono.defer(() -> {
                    if (notification.paymentId() == null) {
                        return Mono.error(new PaymentNotFound(notification.reference()));
                    }
                    return payments.findAnyMerchant(notification.paymentId())
                            .filter(payment -> merchantId == null || payment.merchantId().equals(merchantId))
                            .switchIfEmpty(Mono.error(() -> new PaymentNotFound(notification.paymentId())))
                            .flatMap(payment -> attemptWithoutReference(connector, payment, notification.reference())
                                    .map(number -> new ResolvedAttempt(payment.id(), Optional.of(number)))
                                    .defaultIfEmpty(new ResolvedAttempt(payment.id(), Optional.empty())));
                }));
    }

    /**
     * Which of the payment's attempts at the connector without a recorded reference holds the named charge, its
     * reference then recorded:
     * <ul>
     *   <li>the one the connector's look-up places it at;</li>
     *   <li>failing that (Adyen has no look-up, Stripe's search lags), the only attempt left: an attempt is at most
     *       one charge per connector (its idempotency key), and the notification is signed and names this
     *       payment, so the charge is that attempt's;</li>
     *   <li>several left: not decidable now ({@link WebhookNotYetMatchable}, 503, nothing recorded): the connector
     *       redelivers, and recovery's resubmission records the references meanwhile;</li>
     *   <li>none left: empty (ignored, recorded).</li>
     * </ul>
     * A look-up that fails propagates (502, nothing recorded, redelivered): set aside as "no attempt has this
     * charge", a notification the connector sends once would be lost, and its payment left PROCESSING for good.
     */
    private Mono<Integer> attemptWithoutReference(String connector, Payment payment, String reference) {
        return attempts.attemptsWithoutReference(payment.id(), connector).collectList()
                .flatMap(candidates -> Flux.fromIterable(candidates)
                        .concatMap(number -> gateway.find(new ChargeRequest(payment.id(), number, payment.amount(),
                                        payment.currency(), payment.paymentMethod(), payment.merchantId(), connector))
                                .map(outcome -> Map.entry(number, outcome.reference())))
                        .collectList()
                        .flatMap(placed -> {
                            Optional<Integer> lookedUp = placed.stream()
                                    .filter(found -> found.getValue().equals(reference))
                                    .map(Map.Entry::getKey).findFirst();
                            List<Integer> left = candidates.stream().filter(number -> placed.stream()
                                    .noneMatch(found -> found.getKey().equals(number))).toList();
                            Optional<Integer> number = lookedUp.isPresent() ? lookedUp
                                    : left.size() == 1 ? Optional.of(left.get(0)) : Optional.empty();
                            if (number.isPresent()) {
                                return attempts.recordReference(payment.id(), number.get(), reference)
                                        .thenReturn(number.get());
                            }
                            return left.isEmpty() ? Mono.<Integer>empty()
                                    : Mono.error(new WebhookNotYetMatchable(connector, reference, left));
                        }));
    }

    private Mono<WebhookOutcome> applyOnce(String connector, ConnectorNotification notification,
                                           ResolvedAttempt attempt) {
        return receipts.claim(notification.receiptId(), connector, notification.type(), attempt.paymentId(),
                        Timestamps.now(clock))
                .flatMap(claimed -> !claimed
                        ? Mono.just(WebhookOutcome.DUPLICATE)
                        : payments.findAnyMerchant(attempt.paymentId())
                                .flatMap(payment -> decide(connector, notification, attempt, payment)));
    }

    private Mono<WebhookOutcome> decide(String connector, ConnectorNotification notification,
                                        ResolvedAttempt attempt, Payment payment) {
        String receiptId = notification.receiptId();
        if (payment.amount() != notification.amount() || !payment.currency().equals(notification.currency())) {
            log.warn("Anomaly: webhook={} payment={} merchant={} reports {} {} but the payment is {} {}", receiptId,
                    payment.id(), payment.merchantId(), notification.amount(), notification.currency(),
                    payment.amount(), payment.currency());
            return record(receiptId, WebhookOutcome.REJECTED, "amount or currency mismatch");
        }
        if (attempt.number().isEmpty()) {
            return record(receiptId, WebhookOutcome.IGNORED,
                    "no attempt of the payment has " + connector + " charge " + notification.reference());
        }
        GatewayOutcome outcome = new GatewayOutcome(payment.id(), attempt.number().get(), connector,
                notification.reference(), notification.status(), notification.failureReason());
        return outcomes.apply(payment, outcome, new TransitionOrigin(TransitionSource.WEBHOOK, receiptId))
                .flatMap(result -> switch (result.kind()) {
                    case APPLIED -> record(receiptId, WebhookOutcome.APPLIED, null);
                    case IGNORED -> record(receiptId, WebhookOutcome.IGNORED, ignoredDetail(notification, payment,
                            outcome));
                    case ORPHANED -> record(receiptId, WebhookOutcome.REJECTED,
                            "orphaned charge: attempt " + outcome.attempt() + " succeeded after attempt "
                                    + payment.attempt() + " began");
                });
    }

    private static String ignoredDetail(ConnectorNotification notification, Payment payment, GatewayOutcome outcome) {
        return outcome.attempt() != payment.attempt()
                ? notification.type() + " for superseded attempt " + outcome.attempt() + " (current "
                        + payment.attempt() + ")"
                : notification.type() + " for a " + payment.status() + " payment";
    }

    private Mono<WebhookOutcome> record(String receiptId, WebhookOutcome outcome, String detail) {
        return receipts.recordOutcome(receiptId, outcome, detail).thenReturn(outcome);
    }
}
