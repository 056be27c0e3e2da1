package com.payorch.gateway;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A connector's word about one refund, wherever it came from: the live request, a webhook or the reconciler.
 *
 * @param reference     the connector's id of the refund (`rf_…` sandbox, `re_…` Stripe, a pspReference Adyen), when
 *                      the message names it (the sandbox's refund webhooks do not)
 * @param status        PROCESSING while the connector has not decided, then SUCCEEDED or FAILED
 * @param failureReason the connector's reason when {@code status} is FAILED
 */
public record RefundOutcome(String refundId, String connector, @Nullable String reference, GatewayStatus status,
                            @Nullable String failureReason) {

    public RefundOutcome {
        Objects.requireNonNull(refundId, "refundId");
        Objects.requireNonNull(connector, "connector");
        Objects.requireNonNull(status, "status");
    }
}
