package com.payorch.payments;

import java.time.Duration;
import java.util.Locale;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code payments.capture.*}: how long a hold lasts and what happens to it before it lapses.
 *
 * @param authorizationValidity an AUTHORIZED payment's {@code authorizationExpiresAt} is its authorisation time plus
 *                              this (connectors keep card authorisations about seven days)
 * @param onExpiry              {@code cancel} (release the hold) or {@code capture} (take it all), applied
 *                              {@code expiry-margin} before the authorisation lapses; a merchant may override it
 *                              with {@code payments.merchants.<id>.capture.on-expiry}
 * @param expiryMargin          how long before {@code authorizationExpiresAt} the policy is applied
 */
@ConfigurationProperties("payments.capture")
public record CaptureProperties(@DefaultValue("P7D") Duration authorizationValidity,
                                @DefaultValue("cancel") String onExpiry,
                                @DefaultValue("PT6H") Duration expiryMargin) {

    public CaptureProperties {
        if (authorizationValidity.isNegative() || authorizationValidity.isZero()) {
            throw new IllegalArgumentException("payments.capture.authorization-validity must be positive, not "
                    + authorizationValidity);
        }
        if (expiryMargin.isNegative()) {
            throw new IllegalArgumentException("payments.capture.expiry-margin must not be negative");
        }
        onExpiry = ExpiryPolicy.parse("payments.capture.on-expiry", onExpiry).value();
    }

    public ExpiryPolicy expiryPolicy() {
        return ExpiryPolicy.parse("payments.capture.on-expiry", onExpiry);
    }

    /** What is done to a hold about to lapse. */
    public enum ExpiryPolicy {
        CANCEL, CAPTURE;

        public String value() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static ExpiryPolicy parse(String key, String value) {
            for (ExpiryPolicy policy : values()) {
                if (policy.value().equals(value)) {
                    return policy;
                }
            }
            throw new IllegalArgumentException(key + " must be 'cancel' or 'capture', not '" + value + "'");
        }
    }
}
