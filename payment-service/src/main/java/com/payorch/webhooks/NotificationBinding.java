package com.payorch.webhooks;

import com.payorch.gateway.ConnectorNotification;
import com.payorch.payments.AttemptReferences;
import com.payorch.payments.Payment;
import com.payorch.payments.PaymentNotFound;
import com.payorch.payments.PaymentQueries;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Binds a connector's notification about a charge to the one attempt it is about (contract v3, "exact binding"):
 * <ol>
 *   <li>the attempt the notification names ({@link ConnectorNotification#attempt()}), which must be an attempt of the
 *       named payment at that connector; its reference is recorded when the attempt has none yet;</li>
 *   <li>else the attempt that holds the notification's reference;</li>
 *   <li>never by elimination ("the only attempt without a reference"): a notification bound to neither names no
 *       attempt of the payment and changes nothing.</li>
 * </ol>
 * Only payments of the endpoint's merchant are looked at (a PSP's endpoints are per merchant). A payment this service
 * does not know (Stripe sends events about every object of the account) is {@link Binding#foreign}: answered 200
 * "ignored" so the connector stops resending, except at the sandbox's single endpoint, whose contract answers 404.
 */
@Component
class NotificationBinding {

    private final PaymentQueries payments;
    private final AttemptReferences attempts;

    NotificationBinding(PaymentQueries payments, AttemptReferences attempts) {
        this.payments = payments;
        this.attempts = attempts;
    }

    /**
     * What a notification is bound to.
     *
     * @param paymentId the endpoint merchant's payment it is about, null when it is about none
     * @param attempt   the attempt it is bound to; empty when it names no attempt of the payment ({@code why} says)
     */
    record Binding(@Nullable String paymentId, Optional<Integer> attempt, @Nullable String why) {

        static Binding to(String paymentId, int attempt) {
            return new Binding(paymentId, Optional.of(attempt), null);
        }

        static Binding noAttempt(String paymentId, String why) {
            return new Binding(paymentId, Optional.empty(), why);
        }

        static Binding foreign(String why) {
            return new Binding(null, Optional.empty(), why);
        }

        boolean isForeign() {
            return paymentId == null;
        }
    }

    /**
     * @param merchantId the merchant whose endpoint received it, or null (the sandbox's single endpoint: an unknown
     *                   payment is {@link PaymentNotFound}, 404, as its contract says)
     */
    Mono<Binding> bind(String connector, @Nullable String merchantId, ConnectorNotification notification) {
        Mono<Binding> bound = notification.attempt() != null
                ? byNamedAttempt(connector, merchantId, notification, notification.attempt())
                : byReference(connector, merchantId, notification);
        return bound.flatMap(binding -> binding.isForeign() && merchantId == null
                ? Mono.error(new PaymentNotFound(notification.paymentId() != null ? notification.paymentId()
                        : notification.reference()))
                : Mono.just(binding));
    }

    private Mono<Binding> byNamedAttempt(String connector, @Nullable String merchantId,
                                         ConnectorNotification notification, int named) {
        Mono<String> paymentId = notification.paymentId() != null ? Mono.just(notification.paymentId())
                : attempts.findAttemptByReference(connector, notification.reference()).map(Map.Entry::getKey);
        return paymentId.flatMap(id -> paymentOf(merchantId, id))
                .flatMap(payment -> attempts.findAttemptByReference(connector, notification.reference())
                        .map(Optional::of).defaultIfEmpty(Optional.empty())
                        .flatMap(holder -> {
                            if (holder.isPresent() && !(holder.get().getKey().equals(payment.id())
                                    && holder.get().getValue() == named)) {
                                return Mono.just(Binding.noAttempt(payment.id(), "names attempt " + named + " but "
                                        + connector + " charge " + notification.reference()
                                        + " is recorded on another attempt"));
                            }
                            return attempts.attemptAt(payment.id(), named, connector)
                                    .flatMap(reference -> reference.isPresent()
                                            ? Mono.just(Binding.to(payment.id(), named))
                                            : attempts.recordReference(payment.id(), named, notification.reference())
                                                    .thenReturn(Binding.to(payment.id(), named)))
                                    .defaultIfEmpty(Binding.noAttempt(payment.id(), "names attempt " + named
                                            + ", which the payment does not have at " + connector));
                        }))
                .defaultIfEmpty(Binding.foreign(unknownPayment(notification)));
    }

    private Mono<Binding> byReference(String connector, @Nullable String merchantId,
                                      ConnectorNotification notification) {
        return attempts.findAttemptByReference(connector, notification.reference())
                .flatMap(found -> paymentOf(merchantId, found.getKey())
                        .map(payment -> Binding.to(payment.id(), found.getValue())))
                .switchIfEmpty(Mono.defer(() -> notification.paymentId() == null ? Mono.empty()
                        : paymentOf(merchantId, notification.paymentId())
                                .flatMap(payment -> awaitingCancel(connector, notification, payment)
                                        .defaultIfEmpty(Binding.noAttempt(payment.id(), "names no attempt, and no"
                                                + " attempt of the payment has " + connector + " charge "
                                                + notification.reference())))))
                .defaultIfEmpty(Binding.foreign(unknownPayment(notification)));
    }

    /**
     * A confirmation that nothing was taken, naming no attempt (the connector held nothing for the service's reference,
     * so it has no charge to name): bound to the attempt the service itself asked to cancel by that reference.
     */
    private Mono<Binding> awaitingCancel(String connector, ConnectorNotification notification, Payment payment) {
        if (!notification.confirmsNothingTaken()) {
            return Mono.empty();
        }
        return attempts.awaitingCancelConfirmation(payment.id(), connector)
                .map(number -> Binding.to(payment.id(), number));
    }

    private Mono<Payment> paymentOf(@Nullable String merchantId, String paymentId) {
        return payments.findAnyMerchant(paymentId)
                .filter(payment -> merchantId == null || payment.merchantId().equals(merchantId));
    }

    private static String unknownPayment(ConnectorNotification notification) {
        return notification.paymentId() == null
                ? "names no payment of this service (charge " + notification.reference() + ")"
                : "names a payment this endpoint's merchant does not have";
    }
}
