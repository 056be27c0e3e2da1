package com.payorch.webhooks;

import com.payorch.disputes.Dispute;
import com.payorch.disputes.DisputeReport;
import com.payorch.disputes.DisputeQueries;
import com.payorch.disputes.DisputeReports;
import com.payorch.gateway.ConnectorNotification;
import com.payorch.gateway.DisputeNotice;
import com.payorch.payments.Payment;
import com.payorch.payments.PaymentMetrics;
import com.payorch.payments.PaymentQueries;
import com.payorch.payments.RetryingTransaction;
import com.payorch.support.Timestamps;
import java.time.Clock;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * A connector's report about a dispute of one of its charges. Bound to its attempt as every notification is
 * ({@link NotificationBinding}); then, in one transaction, its receipt is claimed (a redelivery is a duplicate) and
 * the report applied through {@link DisputeReports} (itself applied once per report id, the receipt id). Never a
 * charge's outcome: the payment's status is not asked of anything.
 *
 * <p>A report that names no payment of the endpoint's merchant is answered as every such notification (ignored, or
 * 404 at the sandbox's endpoint), one bound to no attempt is ignored, and one whose amount or currency cannot be of
 * the payment's charge (more than it, another currency), or that names a dispute the connector reported for another
 * payment, is rejected as an anomaly: none of them touches a dispute.
 */
@Component
class DisputeNotifications {

    private static final Logger log = LoggerFactory.getLogger(DisputeNotifications.class);

    private final NotificationBinding binding;
    private final PaymentQueries payments;
    private final DisputeReports disputes;
    private final DisputeQueries disputeQueries;
    private final WebhookReceipts receipts;
    private final RetryingTransaction transaction;
    private final PaymentMetrics metrics;
    private final Clock clock;

    DisputeNotifications(NotificationBinding binding, PaymentQueries payments, DisputeReports disputes,
                         DisputeQueries disputeQueries, WebhookReceipts receipts, RetryingTransaction transaction,
                         PaymentMetrics metrics, Clock clock) {
        this.binding = binding;
        this.payments = payments;
        this.disputes = disputes;
        this.disputeQueries = disputeQueries;
        this.receipts = receipts;
        this.transaction = transaction;
        this.metrics = metrics;
        this.clock = clock;
    }

    Mono<WebhookOutcome> apply(String connector, @Nullable String merchantId, ConnectorNotification notification) {
        if (!notification.isAboutADispute()) {
            return Mono.error(new IllegalArgumentException("not about a dispute: " + notification.receiptId()));
        }
        return binding.bind(connector, merchantId, notification)
                .flatMap(bound -> transaction.run(() -> applyOnce(connector, merchantId, notification, bound))
                        .doOnNext(outcome -> {
                            metrics.webhook(outcome.value());
                            log.info("webhook={} connector={} type={} dispute={} reference={} payment={} attempt={}"
                                            + " outcome={}", notification.receiptId(), connector, notification.type(),
                                    notification.dispute().connectorReference(), notification.reference(),
                                    bound.paymentId(), bound.attempt().map(String::valueOf).orElse("none"),
                                    outcome.value());
                        }));
    }

    private Mono<WebhookOutcome> applyOnce(String connector, @Nullable String merchantId,
                                           ConnectorNotification notification, NotificationBinding.Binding bound) {
        String receiptId = bound.isForeign() ? WebhookApplier.foreignReceipt(connector, merchantId, notification)
                : notification.receiptId();
        return receipts.claim(receiptId, connector, notification.type(), bound.paymentId(), Timestamps.now(clock))
                .flatMap(claimed -> {
                    if (!claimed) {
                        return Mono.just(WebhookOutcome.DUPLICATE);
                    }
                    if (bound.isForeign() || bound.attempt().isEmpty()) {
                        return record(receiptId, WebhookOutcome.IGNORED, bound.why());
                    }
                    return payments.findAnyMerchant(bound.paymentId())
                            .flatMap(payment -> decide(connector, notification, bound.attempt().get(), payment));
                });
    }

    private Mono<WebhookOutcome> decide(String connector, ConnectorNotification notification, int attempt,
                                        Payment payment) {
        String receiptId = notification.receiptId();
        if (!amountMayBeDisputed(notification.dispute(), payment)) {
            log.warn("Anomaly: webhook={} payment={} merchant={} reports a dispute of {} {} but the payment is {} {}",
                    receiptId, payment.id(), payment.merchantId(), notification.dispute().amount(),
                    notification.dispute().currency(), payment.amount(), payment.currency());
            return record(receiptId, WebhookOutcome.REJECTED, "dispute amount or currency mismatch");
        }
        String reference = notification.dispute().connectorReference();
        return disputeQueries.byConnectorReference(connector, reference)
                .map(known -> known.paymentId().equals(payment.id()))
                .defaultIfEmpty(true)
                .flatMap(ofThisPayment -> {
                    if (!ofThisPayment) {
                        // Redelivered for ever if it failed instead; a person must look at the connector's dispute.
                        log.warn("Anomaly: webhook={} connector={} names dispute {} of another payment than {}",
                                receiptId, connector, reference, payment.id());
                        return record(receiptId, WebhookOutcome.REJECTED, "dispute " + reference
                                + " belongs to another payment");
                    }
                    return disputes.apply(report(connector, notification, payment.id(), attempt))
                            .flatMap(dispute -> record(receiptId, WebhookOutcome.APPLIED, describe(dispute)));
                });
    }

    /** A dispute holds some or all of the charge's money, in its currency, never more. */
    static boolean amountMayBeDisputed(DisputeNotice dispute, Payment payment) {
        return payment.currency().equals(dispute.currency()) && dispute.amount() > 0
                && dispute.amount() <= payment.amount();
    }

    /** The report of the notification bound to {@code attempt} of {@code paymentId}; its id is the receipt's. */
    static DisputeReport report(String connector, ConnectorNotification notification, String paymentId, int attempt) {
        DisputeNotice dispute = Objects.requireNonNull(notification.dispute(), "dispute");
        return new DisputeReport(connector, notification.receiptId(), dispute.connectorReference(), paymentId, attempt,
                kind(dispute.kind()), dispute.amount(), dispute.currency(), dispute.reason(), dispute.evidenceDueBy(),
                dispute.occurredAt());
    }

    static DisputeReport.Kind kind(DisputeNotice.Kind kind) {
        return switch (kind) {
            case OPENED -> DisputeReport.Kind.OPENED;
            case UPDATED -> DisputeReport.Kind.UPDATED;
            case WON -> DisputeReport.Kind.WON;
            case LOST -> DisputeReport.Kind.LOST;
        };
    }

    private static String describe(Dispute dispute) {
        return "dispute " + dispute.id() + " " + dispute.status();
    }

    private Mono<WebhookOutcome> record(String receiptId, WebhookOutcome outcome, @Nullable String detail) {
        return receipts.recordOutcome(receiptId, outcome, detail).thenReturn(outcome);
    }
}
