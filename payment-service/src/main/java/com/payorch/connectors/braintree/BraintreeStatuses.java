package com.payorch.connectors.braintree;

import com.braintreegateway.Transaction;
import com.payorch.gateway.GatewayStatus;
import com.payorch.gateway.MappedStatus;
import org.jspecify.annotations.Nullable;

/**
 * A Braintree transaction's status in the port's words, for a sale (the charge) and for a credit (a refund) alike:
 * <table>
 *   <caption>Braintree transaction status → port status</caption>
 *   <tr><th>Braintree status</th><th>port</th><th>failure reason</th></tr>
 *   <tr><td>submitted_for_settlement, settling, settled, settlement_confirmed</td><td>SUCCEEDED</td><td></td></tr>
 *   <tr><td>settlement_pending, authorizing, authorized, unrecognized</td><td>PROCESSING</td><td></td></tr>
 *   <tr><td>processor_declined</td><td>FAILED</td><td>`processor_declined:` the processor response code and
 *       text, e.g. `processor_declined: 2000 Do Not Honor`</td></tr>
 *   <tr><td>gateway_rejected</td><td>FAILED</td><td>`gateway_rejected:` the rejection reason (`cvv`, `avs`,
 *       `fraud`, `duplicate`, …)</td></tr>
 *   <tr><td>settlement_declined</td><td>FAILED</td><td>`settlement_declined:` the processor settlement response
 *       code and text</td></tr>
 *   <tr><td>failed</td><td>FAILED</td><td>`failed:` the processor response code and text</td></tr>
 *   <tr><td>voided, authorization_expired</td><td>FAILED</td><td>`voided`, `authorization_expired`</td></tr>
 *   <tr><td>gateway_rejected `three_d_secure`, processor_declined 2099 (cardholder authentication
 *       required)</td><td>FAILED</td><td>`authentication_required`</td></tr>
 * </table>
 * <p>Customer action is not supported: this connector never sends a customer to a 3-D Secure page, so a sale Braintree
 * refuses for want of that authentication FAILS {@value #AUTHENTICATION_REQUIRED}, as at every connector whose
 * customer cannot act (contract v3, "customer action").
 * An automatic sale is submitted for settlement at once, so `submitted_for_settlement` is money the merchant is getting
 * (Braintree settles it in its next batch); an `authorized` automatic sale was not captured and stays PROCESSING.
 * <p>A manual (hold) sale is only authorised: for it `authorized` is AUTHORIZED (the money is held), and `voided` and
 * `authorization_expired` are CANCELLED (the hold was released, or lapsed); the rest of the table is the same.
 */
public final class BraintreeStatuses {

    /** The failure reason of a sale that needed 3-D Secure, which this connector cannot ask the customer for. */
    static final String AUTHENTICATION_REQUIRED = "authentication_required";

    /** Braintree's processor response "Cardholder Authentication Required". */
    static final String AUTHENTICATION_REQUIRED_CODE = "2099";

    private static final String THREE_D_SECURE = "three_d_secure";

    private BraintreeStatuses() {
    }

    /** A status and the failure reason that goes with it (null unless FAILED). */

    public static MappedStatus of(Transaction transaction) {
        return of(transaction, false);
    }

    /** The status of a sale that was (manual) or was not only authorised, or of a credit (never manual). */
    public static MappedStatus of(Transaction transaction, boolean manualCapture) {
        MappedStatus mapped = of(transaction.getStatus(), transaction.getProcessorResponseCode(),
                transaction.getProcessorResponseText(),
                transaction.getGatewayRejectionReason() != null
                        && transaction.getGatewayRejectionReason() != Transaction.GatewayRejectionReason.UNRECOGNIZED
                        ? transaction.getGatewayRejectionReason().name() : null,
                transaction.getProcessorSettlementResponseCode(), transaction.getProcessorSettlementResponseText());
        return manualCapture ? ofHold(transaction.getStatus(), mapped) : mapped;
    }

    /** A manual sale's status: what a hold's `authorized`, `voided` and `authorization_expired` mean. */
    static MappedStatus ofHold(Transaction.@Nullable Status status, MappedStatus asAutomatic) {
        if (status == null) {
            return asAutomatic;
        }
        return switch (status) {
            case AUTHORIZED -> new MappedStatus(GatewayStatus.AUTHORIZED, null);
            case VOIDED -> new MappedStatus(GatewayStatus.CANCELLED, "voided");
            case AUTHORIZATION_EXPIRED -> new MappedStatus(GatewayStatus.CANCELLED, "authorization_expired");
            default -> asAutomatic;
        };
    }

    public static MappedStatus of(Transaction.@Nullable Status status, @Nullable String responseCode,
                            @Nullable String responseText, @Nullable String rejectionReason,
                            @Nullable String settlementCode, @Nullable String settlementText) {
        if (status == null) {
            return new MappedStatus(GatewayStatus.PROCESSING, null);
        }
        return switch (status) {
            case SUBMITTED_FOR_SETTLEMENT, SETTLING, SETTLED, SETTLEMENT_CONFIRMED ->
                    new MappedStatus(GatewayStatus.SUCCEEDED, null);
            case PROCESSOR_DECLINED -> AUTHENTICATION_REQUIRED_CODE.equals(responseCode) ? authenticationRequired()
                    : failed("processor_declined", responseCode, responseText);
            case GATEWAY_REJECTED -> {
                String reason = rejectionReason != null ? rejectionReason.toLowerCase(java.util.Locale.ROOT) : null;
                yield THREE_D_SECURE.equals(reason) ? authenticationRequired() : failed("gateway_rejected", reason,
                        null);
            }
            case SETTLEMENT_DECLINED -> failed("settlement_declined", settlementCode, settlementText);
            case FAILED -> failed("failed", responseCode, responseText);
            case VOIDED -> new MappedStatus(GatewayStatus.FAILED, "voided");
            case AUTHORIZATION_EXPIRED -> new MappedStatus(GatewayStatus.FAILED, "authorization_expired");
            default -> new MappedStatus(GatewayStatus.PROCESSING, null);
        };
    }

    private static MappedStatus authenticationRequired() {
        return new MappedStatus(GatewayStatus.FAILED, AUTHENTICATION_REQUIRED);
    }

    private static MappedStatus failed(String kind, @Nullable String code, @Nullable String text) {
        String detail = ((code != null ? code : "") + " " + (text != null ? text : "")).trim();
        String reason = detail.isEmpty() ? kind : kind + ": " + detail;
        return new MappedStatus(GatewayStatus.FAILED, reason.length() > 200 ? reason.substring(0, 200) : reason);
    }
}
