package com.payorch.connectors.stripe;

import com.payorch.gateway.GatewayStatus;
import com.payorch.gateway.MappedStatus;
import com.stripe.model.StripeError;
import org.jspecify.annotations.Nullable;

/** Stripe's PaymentIntent and Refund statuses in the port's words: one table, used by the gateway and the webhooks. */
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
     * `succeeded` → SUCCEEDED; `requires_payment_method` (and `canceled`) → FAILED with the last error's
     * `decline_code`, else its `code`; `requires_action` → FAILED `authentication_required` (no redirect flows);
     * anything else (`processing`, `requires_confirmation`) → PROCESSING. A manual-capture PaymentIntent
     * ({@code manual}: its `capture_method` is `manual`) differs in two: `requires_capture` → AUTHORIZED (the money is
     * held) and `canceled` → CANCELLED (released, by us or by Stripe when the authorisation expired).
     */
    public static MappedStatus charge(String status, boolean manual, @Nullable String code,
                                      @Nullable String declineCode) {
        if (manual && status.equals("requires_capture")) {
            return new MappedStatus(GatewayStatus.AUTHORIZED, null);
        }
        if (manual && status.equals("canceled")) {
            return new MappedStatus(GatewayStatus.CANCELLED, null);
        }
        return switch (status) {
            case "succeeded" -> new MappedStatus(GatewayStatus.SUCCEEDED, null);
            case "requires_payment_method", "canceled" -> new MappedStatus(GatewayStatus.FAILED,
                    declineCode != null ? declineCode : code != null ? code
                            : status.equals("canceled") ? "canceled" : "payment_failed");
            case "requires_action" -> new MappedStatus(GatewayStatus.FAILED, "authentication_required");
            default -> new MappedStatus(GatewayStatus.PROCESSING, null);
        };
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
