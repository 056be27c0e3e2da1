package com.payorch.gateway;

import org.jspecify.annotations.Nullable;

/**
 * One outcome a connector's webhook reports, in the port's words, before it is matched to an attempt.
 *
 * @param receiptId     what makes a redelivery a duplicate (the webhook id, the Stripe event id, Adyen's
 *                      pspReference + eventCode + success)
 * @param paymentId     the payment the connector names, when it names one (used only when the reference is not
 *                      recorded on an attempt yet)
 * @param attempt       the attempt the connector names (Stripe {@code metadata.attempt}, Adyen
 *                      {@code additionalData.metadata.attempt}, the sandbox's charge), when it names one: the
 *                      notification is bound to it exactly
 * @param reference     the connector's id of the charge: how the notification is matched to an attempt
 * @param amount        in ISO 4217 minor units: the connector converts its own units back before building this
 * @param refundId      set when the notification is about a refund (our `re_…` id, which the connector was given
 *                      as the refund's idempotency key); the refund's outcome, not the charge's
 * @param dispute       set when the notification is about a dispute of the charge (a chargeback): not the charge's
 *                      outcome; {@code status} is then the charge's status as the connector last reported it
 *                      (SUCCEEDED), and {@code amount}/{@code currency} the disputed amount
 */
public record ConnectorNotification(String receiptId, String type, @Nullable String paymentId,
                                    @Nullable Integer attempt, String reference, GatewayStatus status, long amount,
                                    String currency, @Nullable String failureReason, @Nullable String refundId,
                                    @Nullable DisputeNotice dispute) {

    /** A notification about a charge or a refund, not a dispute. */
    public ConnectorNotification(String receiptId, String type, @Nullable String paymentId,
                                 @Nullable Integer attempt, String reference, GatewayStatus status, long amount,
                                 String currency, @Nullable String failureReason, @Nullable String refundId) {
        this(receiptId, type, paymentId, attempt, reference, status, amount, currency, failureReason, refundId, null);
    }

    /** A notification about a dispute of the charge {@code reference} (of {@code attempt}, when named). */
    public static ConnectorNotification aboutDispute(String receiptId, String type, @Nullable String paymentId,
                                                     @Nullable Integer attempt, String reference,
                                                     DisputeNotice dispute) {
        return new ConnectorNotification(receiptId, type, paymentId, attempt, reference, GatewayStatus.SUCCEEDED,
                dispute.amount(), dispute.currency(), null, null, dispute);
    }

    /** A notification that names no attempt (bound by its reference alone). */
    public ConnectorNotification(String receiptId, String type, @Nullable String paymentId, String reference,
                                 GatewayStatus status, long amount, String currency, @Nullable String failureReason,
                                 @Nullable String refundId) {
        this(receiptId, type, paymentId, null, reference, status, amount, currency, failureReason, refundId);
    }

    /** A notification about a charge. */
    public ConnectorNotification(String receiptId, String type, @Nullable String paymentId, String reference,
                                 GatewayStatus status, long amount, String currency, @Nullable String failureReason) {
        this(receiptId, type, paymentId, reference, status, amount, currency, failureReason, null);
    }

    /**
     * The failure reason of a connector's confirmation that the attempt took no money (a cancel by the service's own
     * reference that the connector confirmed): the payment FAILS {@code gateway_unreachable} (a manual-capture one,
     * reported CANCELLED, ends CANCELLED).
     */
    public static final String CONFIRMED_NOTHING_TAKEN = "gateway_unreachable";

    /** Whether this is a confirmation that the attempt took no money (it may name no attempt and no amount). */
    public boolean confirmsNothingTaken() {
        return (status == GatewayStatus.FAILED || status == GatewayStatus.CANCELLED)
                && CONFIRMED_NOTHING_TAKEN.equals(failureReason) && refundId == null && dispute == null;
    }

    public boolean isAboutADispute() {
        return dispute != null;
    }
}
