package com.payorch.connectors.stripe;

import com.payorch.gateway.GatewayStatus;
import com.payorch.gateway.MappedStatus;
import com.stripe.model.StripeError;
import org.jspecify.annotations.Nullable;

/**
 * Stripe's PaymentIntent and Refund statuses in the port's words: one table, used by the gateway and the webhooks.
 * A PaymentIntent waiting for its customer (`requires_action`) is a customer action only where the gateway can send
 * the customer somewhere: {@link #redirectUrl}.
 */
public final class StripeStatuses {

    private StripeStatuses() {
    }

    public static MappedStatus charge(String status, @Nullable StripeError lastError) {
        return charge(status, false, lastError);
    }

    public static MappedStatus charge(String status, boolean manual, @Nullable StripeError lastError) {
        return charge(status, manual, lastError != null ? lastError.getCode() : null,
                lastError != null ? lastError.getDeclineCode() : null);
    }

    public static MappedStatus charge(String status, @Nullable String code, @Nullable String declineCode) {
        return charge(status, false, code, declineCode);
    }

    /**
     * `succeeded` → SUCCEEDED; `requires_payment_method` → FAILED with the last error's `decline_code`, else its
     * `code` (a failed 3-D Secure: `payment_intent_authentication_failure`); `canceled` → CANCELLED (released, by us
     * or by Stripe when an authorisation expired; the payment decides what a cancelled attempt means);
     * `requires_action` → FAILED `authentication_required`: the customer cannot be sent anywhere (a `use_stripe_sdk`
     * action, or no `return_url` was sent); the gateway answers REQUIRES_ACTION instead when {@link #redirectUrl}
     * names a page. Anything else (`processing`, `requires_confirmation`) → PROCESSING. A manual-capture
     * PaymentIntent ({@code manual}: its `capture_method` is `manual`) differs in one: `requires_capture` →
     * AUTHORIZED (the money is held).
     */
    public static MappedStatus charge(String status, boolean manual, @Nullable String code,
                                      @Nullable String declineCode) {
        if (manual && status.equals("requires_capture")) {
            return new MappedStatus(GatewayStatus.AUTHORIZED, null);
        }
        return switch (status) {
            case "succeeded" -> new MappedStatus(GatewayStatus.SUCCEEDED, null);
            case "canceled" -> new MappedStatus(GatewayStatus.CANCELLED, null);
            case "requires_payment_method" -> new MappedStatus(GatewayStatus.FAILED,
                    declineCode != null ? declineCode : code != null ? code : "payment_failed");
            case "requires_action" -> new MappedStatus(GatewayStatus.FAILED, "authentication_required");
            default -> new MappedStatus(GatewayStatus.PROCESSING, null);
        };
    }

    /**
     * Where a `requires_action` PaymentIntent sends its customer: `next_action.redirect_to_url.url` when the action is
     * `redirect_to_url` (Stripe's 3-D Secure page, asked for by confirming with a `return_url`), else null (a
     * `use_stripe_sdk` action needs Stripe.js in the merchant's page, which this service does not drive).
     */
    public static @Nullable String redirectUrl(@Nullable String status, @Nullable String nextActionType,
                                               @Nullable String url) {
        return "requires_action".equals(status) && "redirect_to_url".equals(nextActionType) && url != null
                && !url.isBlank() ? url : null;
    }

    /**
     * Why a hold was released, from the PaymentIntent's `cancellation_reason`: `automatic` is Stripe's own release of
     * an authorisation not captured in time (7 days for most cards), reported as `authorization_expired`.
     */
    public static String cancelReason(@Nullable String cancellationReason) {
        if (cancellationReason == null || cancellationReason.isBlank()) {
            return "canceled";
        }
        return cancellationReason.equals("automatic") ? "authorization_expired" : cancellationReason;
    }

    /** Whether a PaymentIntent's `capture_method` makes it a hold. */
    public static boolean manual(@Nullable String captureMethod) {
        return "manual".equals(captureMethod);
    }

    /**
     * A Stripe Refund's status: `succeeded` → SUCCEEDED; `failed` / `canceled` → FAILED with Stripe's
     * `failure_reason` (else `refund_failed`); `pending`, `requires_action` → PROCESSING.
     */
    public static MappedStatus refund(@Nullable String status, @Nullable String failureReason) {
        if ("succeeded".equals(status)) {
            return new MappedStatus(GatewayStatus.SUCCEEDED, null);
        }
        if ("failed".equals(status) || "canceled".equals(status)) {
            return new MappedStatus(GatewayStatus.FAILED, failureReason != null ? failureReason : "refund_failed");
        }
        return new MappedStatus(GatewayStatus.PROCESSING, null);
    }
}
