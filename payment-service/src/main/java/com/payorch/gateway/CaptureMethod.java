package com.payorch.gateway;

import java.util.Locale;
import java.util.Optional;

/**
 * Whether a connector takes the money at once ({@link #AUTOMATIC}) or only authorises it, to be captured later or
 * released ({@link #MANUAL}: a hold).
 */
public enum CaptureMethod {
    AUTOMATIC,
    MANUAL;

    /** As the API and the database write it: {@code automatic}, {@code manual}. */
    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<CaptureMethod> fromValue(String value) {
        for (CaptureMethod method : values()) {
            if (method.value().equals(value)) {
                return Optional.of(method);
            }
        }
        return Optional.empty();
    }
}
