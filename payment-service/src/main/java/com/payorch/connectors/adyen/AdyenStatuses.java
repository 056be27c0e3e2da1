package com.payorch.connectors.adyen;

import com.payorch.gateway.GatewayStatus;
import com.payorch.gateway.MappedStatus;
import org.jspecify.annotations.Nullable;

/** Adyen's `resultCode` in the port's words (`Error` is handled before: ambiguous). */
public final class AdyenStatuses {

    private AdyenStatuses() {
    }

    /**
     * `Authorised` → SUCCEEDED; `Refused` → FAILED (`refusalReason`); `Cancelled` → FAILED; `RedirectShopper`,
     * `IdentifyShopper`, `ChallengeShopper` → FAILED `authentication_required` (no 3-D Secure flows); `Received`,
     * `Pending` and the rest → PROCESSING.
     */
    public static MappedStatus charge(String resultCode, @Nullable String refusalReason) {
        return switch (resultCode) {
            case "Authorised" -> new MappedStatus(GatewayStatus.SUCCEEDED, null);
            case "Refused" -> new MappedStatus(GatewayStatus.FAILED, refusalReason != null ? refusalReason : "Refused");
            case "Cancelled" -> new MappedStatus(GatewayStatus.FAILED, "cancelled");
            case "RedirectShopper", "IdentifyShopper", "ChallengeShopper" ->
                    new MappedStatus(GatewayStatus.FAILED, "authentication_required");
            default -> new MappedStatus(GatewayStatus.PROCESSING, null);
        };
    }
}
