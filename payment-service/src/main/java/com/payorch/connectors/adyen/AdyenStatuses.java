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
     * FAILED; `RedirectShopper`, `IdentifyShopper`, `ChallengeShopper` → FAILED `authentication_required` (no 3-D Secure flows); `Received`,
     * `Pending` and the rest → PROCESSING.
     */
    public static MappedStatus charge(String resultCode, @Nullable String refusalReason) {
        return charge(resultCode, refusalReason, CaptureMethod.AUTOMATIC);
    }

    /** As {@link #charge(String, String)}; `Authorised` of a manual-capture payment is AUTHORIZED (held, not taken). */
    public static MappedStatus charge(String resultCode, @Nullable String refusalReason, CaptureMethod captureMethod) {
        return switch (resultCode) {
            case "Authorised" -> new MappedStatus(captureMethod == CaptureMethod.MANUAL ? GatewayStatus.AUTHORIZED
                    : GatewayStatus.SUCCEEDED, null);
            case "Refused" -> new MappedStatus(GatewayStatus.FAILED, refusalReason != null ? refusalReason : "Refused");
            case "Cancelled" -> new MappedStatus(GatewayStatus.FAILED, "cancelled");
            case "RedirectShopper", "IdentifyShopper", "ChallengeShopper" ->
                    new MappedStatus(GatewayStatus.FAILED, "authentication_required");
            default -> new MappedStatus(GatewayStatus.PROCESSING, null);
        };
    }
}
