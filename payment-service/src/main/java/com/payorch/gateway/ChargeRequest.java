package com.payorch.gateway;

import org.jspecify.annotations.Nullable;

/**
 * What a connector is asked to charge for one attempt. The payment id and the attempt (1, then one more per retry
 * of a failed payment) form the connector's idempotency key: the same attempt submitted again is the same charge.
 *
 * @param merchantId the merchant whose connector account is used (connectors hold credentials per merchant)
 * @param connector  the connector the attempt is recorded at; null only where no router is involved (one connector)
 * @param reference  the connector's id of the attempt's charge when it is recorded (a Stripe PaymentIntent id is then
 *                   looked up by id, never searched for); null when no answer of the connector named it yet
 * @param captureMethod {@link CaptureMethod#MANUAL}: the connector only authorises (a hold), the money is captured
 *                   later ({@link PaymentGateway#capture}) or released ({@link PaymentGateway#cancel})
 * @param returnUrl  where the connector sends the customer back after an action it asks for (3-D Secure, a
 *                   redirect): the merchant's `returnUrl` with `payment_id=<id>` added to its query. Null when the
 *                   merchant gave none: the connector must then not wait for the customer (such a payment FAILS
 *                   `authentication_required`)
 */
public record ChargeRequest(String paymentId, int attempt, long amount, String currency, String paymentMethod,
                            @Nullable String merchantId, @Nullable String connector, @Nullable String reference,
                            CaptureMethod captureMethod, @Nullable String returnUrl) {

    public ChargeRequest {
        java.util.Objects.requireNonNull(captureMethod, "captureMethod");
    }

    public ChargeRequest(String paymentId, int attempt, long amount, String currency, String paymentMethod,
                         @Nullable String merchantId, @Nullable String connector, @Nullable String reference,
                         CaptureMethod captureMethod) {
        this(paymentId, attempt, amount, currency, paymentMethod, merchantId, connector, reference, captureMethod,
                null);
    }

    public ChargeRequest(String paymentId, int attempt, long amount, String currency, String paymentMethod,
                         @Nullable String merchantId, @Nullable String connector, @Nullable String reference) {
        this(paymentId, attempt, amount, currency, paymentMethod, merchantId, connector, reference,
                CaptureMethod.AUTOMATIC);
    }

    public ChargeRequest(String paymentId, int attempt, long amount, String currency, String paymentMethod,
                         @Nullable String merchantId, @Nullable String connector) {
        this(paymentId, attempt, amount, currency, paymentMethod, merchantId, connector, null);
    }

    public ChargeRequest(String paymentId, int attempt, long amount, String currency, String paymentMethod) {
        this(paymentId, attempt, amount, currency, paymentMethod, null, null, null);
    }

    /** Whether the connector is asked only to authorise (a hold). */
    public boolean manualCapture() {
        return captureMethod == CaptureMethod.MANUAL;
    }

    /** The same attempt with another capture method. */
    public ChargeRequest capturing(CaptureMethod method) {
        return new ChargeRequest(paymentId, attempt, amount, currency, paymentMethod, merchantId, connector, reference,
                method, returnUrl);
    }

    /** Whether the connector may wait for the customer (the merchant gave a `returnUrl`). */
    public boolean customerCanAct() {
        return returnUrl != null;
    }

    /** The same attempt, with where the customer comes back to after an action. */
    public ChargeRequest returningTo(@Nullable String url) {
        return new ChargeRequest(paymentId, attempt, amount, currency, paymentMethod, merchantId, connector, reference,
                captureMethod, url);
    }

    public String idempotencyKey() {
        return attempt == 1 ? paymentId : paymentId + "-attempt-" + attempt;
    }

    /** The same attempt, addressed to another connector (failover after a definite "not charged"). */
    public ChargeRequest at(String otherConnector) {
        return new ChargeRequest(paymentId, attempt, amount, currency, paymentMethod, merchantId, otherConnector, null,
                captureMethod, returnUrl);
    }

    /** The same attempt, with the connector's recorded id of its charge. */
    public ChargeRequest withReference(@Nullable String recorded) {
        return new ChargeRequest(paymentId, attempt, amount, currency, paymentMethod, merchantId, connector, recorded,
                captureMethod, returnUrl);
    }
}
