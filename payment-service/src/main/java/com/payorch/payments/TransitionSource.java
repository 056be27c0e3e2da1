package com.payorch.payments;

import java.util.Locale;

/** Who caused a transition: a client's API request, a gateway webhook, or one of the background jobs. */
public enum TransitionSource {
    API, WEBHOOK, RECOVERY, RECONCILER;

    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static TransitionSource fromValue(String value) {
        return valueOf(value.toUpperCase(Locale.ROOT));
    }
}
