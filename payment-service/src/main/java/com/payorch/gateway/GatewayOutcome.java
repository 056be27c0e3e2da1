package com.payorch.gateway;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A connector's word about one attempt of one payment, wherever it came from: the live submit, a webhook or the
 * reconciler. It changes the payment only while {@code attempt} is the payment's current attempt.
 *
 * @param reference     the connector's id for the attempt's charge (`ch_…`, `pi_…`, a pspReference)
 * @param failureReason the connector's reason when {@code status} is FAILED
 * @param nextActionUrl where the customer is sent when {@code status} is REQUIRES_ACTION (the connector's page), else
 *                      null
 */
public record GatewayOutcome(String paymentId, int attempt, String connector, String reference, GatewayStatus status,
                             @Nullable String failureReason, @Nullable String nextActionUrl) {

    public GatewayOutcome(String paymentId, int attempt, String connector, String reference, GatewayStatus status,
                          @Nullable String failureReason) {
        this(paymentId, attempt, connector, reference, status, failureReason, null);
    }

    /** The connector waits for the customer at {@code url}. */
    public static GatewayOutcome requiresAction(String paymentId, int attempt, String connector, String reference,
                                                String url) {
        return new GatewayOutcome(paymentId, attempt, connector, reference, GatewayStatus.REQUIRES_ACTION, null, url);
    }

    public GatewayOutcome {
        Objects.requireNonNull(paymentId, "paymentId");
        Objects.requireNonNull(connector, "connector");
        Objects.requireNonNull(reference, "reference");
        Objects.requireNonNull(status, "status");
    }

    /** The money was taken or is held: for a payment that ended without money, an orphaned charge to give back. */
    public boolean tookMoney() {
        return status == GatewayStatus.SUCCEEDED || status == GatewayStatus.AUTHORIZED;
    }
}
