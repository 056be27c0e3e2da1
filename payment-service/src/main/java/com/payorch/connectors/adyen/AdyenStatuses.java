package com.payorch.connectors.adyen;

import com.payorch.gateway.CaptureMethod;
import com.payorch.gateway.GatewayStatus;
import com.payorch.gateway.MappedStatus;
import org.jspecify.annotations.Nullable;

/** Adyen's `resultCode` in the port's words (`Error` is handled before: ambiguous). */
public final class AdyenStatuses {

    private AdyenStatuses() {
    }

    /**
     * `Authorised` → SUCCEEDED (AUTHORIZED for a manual capture); `Refused` → FAILED (`refusalReason`); `Cancelled` →
     * FAILED; `RedirectShopper`, `IdentifyShopper`, `ChallengeShopper` → FAILED `authentication_required` unless the
     * customer can follow a redirect ({@link #charge(String, String, CaptureMethod, boolean)}); `Received`, `Pending`
     * and the rest → PROCESSING.
     */
    public static MappedStatus charge(String resultCode, @Nullable String refusalReason) {
        return charge(resultCode, refusalReason, CaptureMethod.AUTOMATIC);
    }

    /** As {@link #charge(String, String)}; `Authorised` of a manual-capture payment is AUTHORIZED (held, not taken). */
    public static MappedStatus charge(String resultCode, @Nullable String refusalReason, CaptureMethod captureMethod) {
        return charge(resultCode, refusalReason, captureMethod, false);
    }

    /**
     * As {@link #charge(String, String, CaptureMethod)}, where {@code redirectFollowable} says that Adyen's `action` is
     * a `redirect` the customer's browser can follow (a GET to Adyen's or the issuer's page) and the merchant gave a
     * `returnUrl` to come back to: `RedirectShopper` is then REQUIRES_ACTION. `IdentifyShopper`, `ChallengeShopper`
     * and a `threeDS2` or other action need Adyen's JavaScript components in the merchant's page, which this service
     * does not drive: FAILED `authentication_required`, as is a redirect without a `returnUrl`.
     */
    public static MappedStatus charge(String resultCode, @Nullable String refusalReason, CaptureMethod captureMethod,
                                      boolean redirectFollowable) {
        return switch (resultCode) {
            case "Authorised" -> new MappedStatus(captureMethod == CaptureMethod.MANUAL ? GatewayStatus.AUTHORIZED
                    : GatewayStatus.SUCCEEDED, null);
            case "Refused" -> new MappedStatus(GatewayStatus.FAILED, refusalReason != null ? refusalReason : "Refused");
            case "Cancelled" -> new MappedStatus(GatewayStatus.FAILED, "cancelled");
            case "RedirectShopper" -> redirectFollowable ? new MappedStatus(GatewayStatus.REQUIRES_ACTION, null)
                    : new MappedStatus(GatewayStatus.FAILED, "authentication_required");
            case "IdentifyShopper", "ChallengeShopper" ->
                    new MappedStatus(GatewayStatus.FAILED, "authentication_required");
            default -> new MappedStatus(GatewayStatus.PROCESSING, null);
        };
    }
}
