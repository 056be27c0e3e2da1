package com.payorch.webhooks;

import com.payorch.gateway.ConnectorNotification;
import com.payorch.gateway.ConnectorWebhooks;
import com.payorch.payments.PaymentMetrics;
import com.payorch.payments.PaymentNotFound;
import com.payorch.payments.PaymentQueries;
import com.payorch.payments.RetryingTransaction;
import com.payorch.support.Timestamps;
import java.time.Clock;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * A notification about a charge its connector confirms it never made ({@link ConnectorWebhooks#CHARGE_NEVER_MADE}:
 * a signed sandbox webhook naming a charge id the sandbox has no record of). It changes nothing: its receipt is
 * recorded as {@code ignored} (a redelivery is a duplicate) and counted. A payment that does not exist (or is
 * another merchant's) is not found, nothing recorded, as for any notification.
 */
@Component
class ChargesNeverMade {

    private static final Logger log = LoggerFactory.getLogger(ChargesNeverMade.class);

    private final PaymentQueries payments;
    private final WebhookReceipts receipts;
    private final RetryingTransaction transaction;
    private final PaymentMetrics metrics;
    private final Clock clock;

    ChargesNeverMade(PaymentQueries payments, WebhookReceipts receipts, RetryingTransaction transaction,
                     PaymentMetrics metrics, Clock clock) {
        this.payments = payments;
        this.receipts = receipts;
        this.transaction = transaction;
        this.metrics = metrics;
        this.clock = clock;
    }

    static boolean isAbout(ConnectorNotification notification) {
        return notification.refundId() == null && notification.attempt() != null
                && notification.attempt() == ConnectorWebhooks.CHARGE_NEVER_MADE;
    }

    Mono<WebhookOutcome> ignore(String connector, @Nullable String merchantId, ConnectorNotification notification) {
        String paymentId = notification.paymentId();
        if (paymentId == null) {
            return Mono.error(new PaymentNotFound(notification.reference()));
        }
        return payments.findAnyMerchant(paymentId)
                .filter(payment -> merchantId == null || payment.merchantId().equals(merchantId))
                .switchIfEmpty(Mono.error(() -> new PaymentNotFound(paymentId)))
                .flatMap(payment -> transaction.run(() -> receipts.claim(notification.receiptId(), connector,
                                notification.type(), payment.id(), Timestamps.now(clock))
                        .flatMap(claimed -> !claimed ? Mono.just(WebhookOutcome.DUPLICATE)
                                : receipts.recordOutcome(notification.receiptId(), WebhookOutcome.IGNORED,
                                                connector + " never made charge " + notification.reference())
                                        .thenReturn(WebhookOutcome.IGNORED))))
                .doOnNext(outcome -> {
                    metrics.webhook(outcome.value());
                    log.warn("webhook={} connector={} type={} names charge {} of payment {}, which {} never made;"
                                    + " outcome={}", notification.receiptId(), connector, notification.type(),
                            notification.reference(), paymentId, connector, outcome.value());
                });
    }
}
