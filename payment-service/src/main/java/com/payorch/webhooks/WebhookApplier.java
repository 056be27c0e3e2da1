package com.payorch.webhooks;

import com.payorch.gateway.ConnectorNotification;
import com.payorch.gateway.GatewayOutcome;
import com.payorch.gateway.RefundOutcome;
import com.payorch.payments.GatewayOutcomes;
import com.payorch.payments.Payment;
import com.payorch.payments.PaymentMetrics;
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
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Applies one verified connector notification: binds it to the attempt it is about ({@link NotificationBinding}),
 * then, in one transaction, records its receipt (a duplicate stops here) and applies the outcome through
 * {@link GatewayOutcomes}, against the payment as read in that transaction. A lost optimistic race re-runs the
 * whole transaction against the fresh row. A refund's outcome is applied to its refund, and a report about a dispute
 * to the payment's disputes ({@link DisputeNotifications}), never as the charge's outcome.
 */
@Component
public class WebhookApplier {

    private static final Logger log = LoggerFactory.getLogger(WebhookApplier.class);

    private final PaymentQueries payments;
    private final NotificationBinding binding;
    private final GatewayOutcomes outcomes;
    private final WebhookReceipts receipts;
    private final RetryingTransaction transaction;
    private final PaymentMetrics metrics;
    private final Clock clock;

    private final RefundQueries refundStore;
    private final Refunds refunds;
    private final DisputeNotifications disputes;

    WebhookApplier(PaymentQueries payments, NotificationBinding binding, GatewayOutcomes outcomes,
                   WebhookReceipts receipts, RetryingTransaction transaction, PaymentMetrics metrics,
                   Clock clock, RefundQueries refundStore, Refunds refunds, DisputeNotifications disputes) {
        this.refundStore = refundStore;
        this.refunds = refunds;
        this.disputes = disputes;
        this.payments = payments;
        this.binding = binding;
        this.outcomes = outcomes;
        this.receipts = receipts;
        this.transaction = transaction;
        this.metrics = metrics;
        this.clock = clock;
    }

    public Mono<WebhookOutcome> apply(String connector, ConnectorNotification notification) {
        return apply(connector, null, notification);
    }

    /**
     * @param merchantId the merchant whose endpoint received the notification (a PSP's endpoints are per merchant),
     *                   or null (the sandbox's single endpoint): a notification about another merchant's payment, or
     *                   about none of this service's, changes nothing: 200 ignored, recorded and counted (at the
     *                   sandbox's endpoint: 404, nothing recorded)
     */
    public Mono<WebhookOutcome> apply(String connector, @Nullable String merchantId,
                                      ConnectorNotification notification) {
        switch (NotificationRoute.of(notification)) {
            case REFUND -> {
                return applyToRefund(connector, merchantId, notification);
            }
            case DISPUTE -> {
                return disputes.apply(connector, merchantId, notification);
            }
            default -> {
            }
        }
        return binding.bind(connector, merchantId, notification)
                .flatMap(bound -> transaction.run(() -> applyOnce(connector, merchantId, notification, bound))
                        .doOnNext(outcome -> {
                            metrics.webhook(outcome.value());
                            log.info("webhook={} connector={} type={} reference={} payment={} attempt={} outcome={}",
                                    notification.receiptId(), connector, notification.type(),
                                    notification.reference(), bound.paymentId(),
                                    bound.attempt().map(String::valueOf).orElse("none"), outcome.value());
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
                .map(Optional::of)
                .defaultIfEmpty(Optional.empty())
                .flatMap(refund -> refund.isPresent() ? applyToRefund(connector, notification, refund.get())
                        : merchantId == null ? Mono.error(new RefundNotFound(notification.refundId()))
                        : foreignRefund(connector, merchantId, notification));
    }

    private Mono<WebhookOutcome> applyToRefund(String connector, ConnectorNotification notification, Refund found) {
        return transaction.run(() -> receipts.claim(notification.receiptId(), connector,
                                notification.type(), found.paymentId(), Timestamps.now(clock))
                        .flatMap(claimed -> !claimed ? Mono.just(WebhookOutcome.DUPLICATE)
                                : refundStore.findAnyMerchant(found.id())
                                        .flatMap(refund -> decideRefund(connector, notification, refund))))
                .doOnNext(outcome -> {
                    metrics.webhook(outcome.value());
                    log.info("webhook={} connector={} type={} refund={} payment={} outcome={}",
                            notification.receiptId(), connector, notification.type(), found.id(),
                            found.paymentId(), outcome.value());
                });
    }

    /**
     * A refund this endpoint's merchant does not have at this connector (Stripe sends events about every refund of
     * the account): 200 ignored, recorded and counted, never 404, so the connector stops resending.
     */
    private Mono<WebhookOutcome> foreignRefund(String connector, String merchantId,
                                               ConnectorNotification notification) {
        String receiptId = foreignReceipt(connector, merchantId, notification);
        return transaction.run(() -> receipts.claim(receiptId, connector, notification.type(), null,
                                Timestamps.now(clock))
                        .flatMap(claimed -> !claimed ? Mono.just(WebhookOutcome.DUPLICATE)
                                : record(receiptId, WebhookOutcome.IGNORED,
                                        "names no refund of this endpoint's merchant at " + connector)))
                .doOnNext(outcome -> {
                    metrics.webhook(outcome.value());
                    log.info("webhook={} connector={} type={} refund={} outcome={} (not this merchant's refund)",
                            notification.receiptId(), connector, notification.type(), notification.refundId(),
                            outcome.value());
                });
    }

    /**
     * The receipt of a notification about nothing of this endpoint's merchant, kept apart from the receipts of the
     * notifications that are applied: a misdirected delivery must not make the rightful one a duplicate.
     */
    static String foreignReceipt(String connector, @Nullable String merchantId,
                                         ConnectorNotification notification) {
        return "foreign:" + connector + ":" + merchantId + ":" + notification.receiptId();
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

    private Mono<WebhookOutcome> applyOnce(String connector, @Nullable String merchantId,
                                           ConnectorNotification notification, NotificationBinding.Binding bound) {
        String receiptId = bound.isForeign() ? foreignReceipt(connector, merchantId, notification)
                : notification.receiptId();
        return receipts.claim(receiptId, connector, notification.type(), bound.paymentId(), Timestamps.now(clock))
                .flatMap(claimed -> {
                    if (!claimed) {
                        return Mono.just(WebhookOutcome.DUPLICATE);
                    }
                    if (bound.isForeign()) {
                        // Never 404: Stripe resends an event it could not deliver for three days.
                        return record(receiptId, WebhookOutcome.IGNORED, bound.why());
                    }
                    return payments.findAnyMerchant(bound.paymentId())
                            .flatMap(payment -> decide(connector, notification, bound, payment));
                });
    }

    /**
     * The notification names the payment's currency and amount; a hold's capture, refused capture or release may name
     * the amount it was about instead (a partial capture: Adyen's CAPTURE carries the captured amount), never more.
     */
    static boolean amountMatches(ConnectorNotification notification, Payment payment) {
        if (!payment.currency().equals(notification.currency())) {
            return false;
        }
        boolean aboutThePartOfAHold = payment.manualCapture() && switch (notification.status()) {
            case SUCCEEDED, CAPTURE_FAILED, CANCELLED -> true;
            default -> false;
        };
        return aboutThePartOfAHold ? notification.amount() >= 0 && notification.amount() <= payment.amount()
                : notification.amount() == payment.amount();
    }

    private Mono<WebhookOutcome> decide(String connector, ConnectorNotification notification,
                                        NotificationBinding.Binding attempt,
                                        Payment payment) {
        String receiptId = notification.receiptId();
        // A confirmation that nothing was taken reports no money, and names no amount when the connector held nothing.
        if (!notification.confirmsNothingTaken() && !amountMatches(notification, payment)) {
            log.warn("Anomaly: webhook={} payment={} merchant={} reports {} {} but the payment is {} {}", receiptId,
                    payment.id(), payment.merchantId(), notification.amount(), notification.currency(),
                    payment.amount(), payment.currency());
            return record(receiptId, WebhookOutcome.REJECTED, "amount or currency mismatch");
        }
        if (attempt.attempt().isEmpty()) {
            return record(receiptId, WebhookOutcome.IGNORED, attempt.why());
        }
        GatewayOutcome outcome = new GatewayOutcome(payment.id(), attempt.attempt().get(), connector,
                notification.reference(), notification.status(), notification.failureReason());
        return outcomes.apply(payment, outcome, new TransitionOrigin(TransitionSource.WEBHOOK, receiptId))
                .flatMap(result -> switch (result.kind()) {
                    case APPLIED -> record(receiptId, WebhookOutcome.APPLIED, null);
                    case IGNORED -> record(receiptId, WebhookOutcome.IGNORED, ignoredDetail(notification, payment,
                            outcome));
                    case ORPHANED -> record(receiptId, WebhookOutcome.REJECTED, outcome.attempt() == payment.attempt()
                            ? "orphaned charge: attempt " + outcome.attempt() + " succeeded after the payment "
                                    + payment.status()
                            : "orphaned charge: attempt " + outcome.attempt() + " succeeded after attempt "
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
