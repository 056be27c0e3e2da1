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
        return charge(status, lastError != null ? lastError.getCode() : null,
                lastError != null ? lastError.getDeclineCode() : null);
    }

    /**
     * `succeeded` → SUCCEEDED; `requires_payment_method` (and `canceled`) → FAILED with the last error's
     * `decline_code`, else its `code`; `requires_action` → FAILED `authentication_required` (no redirect flows);
     * anything else (`processing`, `requires_capture`, `requires_confirmation`) → PROCESSING.
     */
    public static MappedStatus charge(String status, @Nullable String code, @Nullable String declineCode) {
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
