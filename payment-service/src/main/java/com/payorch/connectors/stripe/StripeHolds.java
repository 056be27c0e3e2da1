package com.payorch.connectors.stripe;

import com.payorch.gateway.CancelRequest;
import com.payorch.gateway.CaptureRequest;
import com.payorch.gateway.ChargeRequest;
import com.payorch.gateway.GatewayException;
import com.payorch.gateway.GatewayOutcome;
import com.payorch.gateway.GatewayStatus;
import com.payorch.gateway.RefundOutcome;
import com.payorch.gateway.RefundRequest;
import com.stripe.StripeClient;
import com.stripe.exception.CardException;
import com.stripe.exception.InvalidRequestException;
import com.stripe.exception.StripeException;
import com.stripe.model.PaymentIntent;
import com.stripe.net.RequestOptions;
import com.stripe.param.PaymentIntentCancelParams;
import com.stripe.param.PaymentIntentCaptureParams;
import java.util.Arrays;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * Stripe holds: a manual-capture PaymentIntent (`requires_capture`) captured with
 * {@code POST /v1/payment_intents/{id}/capture} (`amount_to_capture`; less than the amount is a partial capture and
 * Stripe releases the rest; one capture per PaymentIntent) or released with {@code POST /v1/payment_intents/{id}/cancel},
 * each under its own `Idempotency-Key` (https://docs.stripe.com/api/payment_intents/capture,
 * https://docs.stripe.com/api/payment_intents/cancel).
 * <ul>
 *   <li>Without a recorded PaymentIntent id the attempt's PaymentIntent is looked up first as {@link StripeGateway#find}
 *       does; none found is a plain {@link GatewayException}: nothing is captured or released on a guess (the attempt's
 *       create may still be in flight).</li>
 *   <li>Stripe answers an operation the PaymentIntent's state does not allow with 400
 *       `payment_intent_unexpected_state`, carrying the PaymentIntent: its state is the answer (already captured under
 *       an older, pruned key → SUCCEEDED; already released → CANCELLED; released by Stripe because the authorisation
 *       expired → a capture fails `authorization_expired`).</li>
 *   <li>A capture Stripe refuses for the hold itself (a card error, `charge_expired_for_capture`, an amount it will not
 *       capture) is CAPTURE_FAILED with Stripe's code: the money stays held. Anything else fails as a submit does
 *       ({@link StripeGateway#translate}).</li>
 * </ul>
 */
final class StripeHolds {

    /** Stripe's codes for "this hold cannot be captured (so)": https://docs.stripe.com/error-codes. */
    private static final Set<String> CANNOT_CAPTURE = Set.of("charge_expired_for_capture", "amount_too_large",
            "amount_too_small");
    private static final Set<String> STATE_SAYS = Set.of("payment_intent_unexpected_state", "charge_already_captured");

    /** The cancel reason the expiry of a customer action records (the payments feature's word, not Stripe's). */
    static final String AUTHENTICATION_EXPIRED = "authentication_expired";

    private final StripeGateway gateway;

    StripeHolds(StripeGateway gateway) {
        this.gateway = gateway;
    }

    Mono<GatewayOutcome> capture(CaptureRequest request) {
        ChargeRequest charge = request.charge();
        OptionalLong amount = StripeGateway.stripeAmount(request.amount(), charge.currency());
        if (amount.isEmpty()) {
            return Mono.error(StripeGateway.cannotExpress(request.amount(), charge.currency(),
                    "capture " + request.number() + " of payment " + charge.paymentId()));
        }
        PaymentIntentCaptureParams params = PaymentIntentCaptureParams.builder()
                .setAmountToCapture(amount.getAsLong()).build();
        RequestOptions options = RequestOptions.builder().setIdempotencyKey(request.idempotencyKey()).build();
        return intentId(charge, "capture").flatMap(id -> gateway.call(charge, "capture " + request.number(),
                client -> {
                    try {
                        return captured(charge, client.v1().paymentIntents().capture(id, params, options));
                    } catch (CardException refused) {
                        return captureFailed(charge, id, refused.getDeclineCode() != null ? refused.getDeclineCode()
                                : code(refused, "card_declined"));
                    } catch (InvalidRequestException refused) {
                        if (STATE_SAYS.contains(refused.getCode())) {
                            return captured(charge, intentOf(client, id, refused));
                        }
                        if (CANNOT_CAPTURE.contains(refused.getCode())) {
                            return captureFailed(charge, id, refused.getCode());
                        }
                        throw refused;
                    }
                }));
    }

    Mono<GatewayOutcome> cancel(CancelRequest request) {
        ChargeRequest charge = request.charge();
        PaymentIntentCancelParams.Builder params = PaymentIntentCancelParams.builder();
        stripeReason(request.reason()).ifPresent(params::setCancellationReason);
        RequestOptions options = RequestOptions.builder().setIdempotencyKey(request.idempotencyKey()).build();
        return intentId(charge, "cancel").flatMap(id -> gateway.call(charge, "cancel", client -> {
            try {
                return released(charge, client.v1().paymentIntents().cancel(id, params.build(), options));
            } catch (InvalidRequestException refused) {
                if (STATE_SAYS.contains(refused.getCode())) {
                    return released(charge, intentOf(client, id, refused));
                }
                throw refused;
            }
        }));
    }

    /**
     * An orphaned charge given back: a hold (`requires_capture`) is released rather than refunded (nothing was taken;
     * a refund of it would be refused), which is the refund's success; a hold already released is given back too.
     * A charge that took the money is refunded as any other refund.
     */
    Mono<RefundOutcome> giveBack(RefundRequest request, ChargeRequest about, long stripeAmount) {
        String intentId = request.chargeReference();
        RequestOptions options = RequestOptions.builder().setIdempotencyKey(request.idempotencyKey() + "-release")
                .build();
        return gateway.call(about, "release of orphaned hold " + intentId, client -> {
            PaymentIntent intent = client.v1().paymentIntents().retrieve(intentId);
            if (!StripeStatuses.manual(intent.getCaptureMethod())) {
                return Optional.<RefundOutcome>empty();
            }
            if ("requires_capture".equals(intent.getStatus())) {
                intent = client.v1().paymentIntents().cancel(intentId, PaymentIntentCancelParams.builder()
                        .setCancellationReason(PaymentIntentCancelParams.CancellationReason.ABANDONED).build(), options);
            }
            if ("canceled".equals(intent.getStatus())) {
                return Optional.of(new RefundOutcome(request.refundId(), StripeGateway.NAME, intent.getId(),
                        GatewayStatus.SUCCEEDED, null));
            }
            return Optional.<RefundOutcome>empty();
        }).flatMap(released -> released.map(Mono::just)
                .orElseGet(() -> gateway.create(request, stripeAmount)));
    }

    /** The attempt's PaymentIntent id: the recorded one, else the one a look-up finds; none is "cannot tell". */
    private Mono<String> intentId(ChargeRequest charge, String what) {
        String recorded = StripeGateway.recordedIntentId(charge);
        if (recorded != null) {
            return Mono.just(recorded);
        }
        return gateway.find(charge)
                .map(GatewayOutcome::reference)
                .filter(reference -> reference.startsWith("pi_"))
                .switchIfEmpty(Mono.error(() -> new GatewayException("Stripe " + what + " of payment "
                        + charge.paymentId() + " attempt " + charge.attempt()
                        + ": no PaymentIntent recorded or found, cannot tell which to " + what)));
    }

    /** The PaymentIntent whose state refused the operation: the one in Stripe's error, else retrieved. */
    private static PaymentIntent intentOf(StripeClient client, String id, StripeException refused)
            throws StripeException {
        PaymentIntent inError = refused.getStripeError() != null ? refused.getStripeError().getPaymentIntent() : null;
        return inError != null && id.equals(inError.getId()) && inError.getStatus() != null ? inError
                : client.v1().paymentIntents().retrieve(id);
    }

    /** A capture's answer: taken (or being taken), else the hold was not captured and why. */
    private static GatewayOutcome captured(ChargeRequest charge, PaymentIntent intent) {
        return switch (intent.getStatus()) {
            case "succeeded" -> StripeGateway.outcome(charge, intent);
            case "processing" -> new GatewayOutcome(charge.paymentId(), charge.attempt(), StripeGateway.NAME,
                    intent.getId(), GatewayStatus.PROCESSING, null);
            case "canceled" -> captureFailed(charge, intent.getId(),
                    StripeStatuses.cancelReason(intent.getCancellationReason()));
            default -> captureFailed(charge, intent.getId(), "payment_intent_unexpected_state");
        };
    }

    /** A cancel's answer: CANCELLED once the PaymentIntent is `canceled`, else what its state says it is. */
    private static GatewayOutcome released(ChargeRequest charge, PaymentIntent intent) {
        if ("canceled".equals(intent.getStatus())) {
            return new GatewayOutcome(charge.paymentId(), charge.attempt(), StripeGateway.NAME, intent.getId(),
                    GatewayStatus.CANCELLED, StripeStatuses.cancelReason(intent.getCancellationReason()));
        }
        return StripeGateway.outcome(charge, intent);
    }

    private static GatewayOutcome captureFailed(ChargeRequest charge, String intentId, String reason) {
        return new GatewayOutcome(charge.paymentId(), charge.attempt(), StripeGateway.NAME, intentId,
                GatewayStatus.CAPTURE_FAILED, reason);
    }

    private static String code(StripeException e, String otherwise) {
        return e.getCode() != null ? e.getCode() : otherwise;
    }

    /**
     * The service's reason when it is one Stripe takes as `cancellation_reason`; Stripe refuses any other. The expiry
     * of a customer action (the customer never came back from 3-D Secure) is Stripe's `abandoned`.
     */
    private static Optional<PaymentIntentCancelParams.CancellationReason> stripeReason(@Nullable String reason) {
        if (AUTHENTICATION_EXPIRED.equals(reason)) {
            return Optional.of(PaymentIntentCancelParams.CancellationReason.ABANDONED);
        }
        return Arrays.stream(PaymentIntentCancelParams.CancellationReason.values())
                .filter(known -> known.getValue().equals(reason))
                .findFirst();
    }
}
