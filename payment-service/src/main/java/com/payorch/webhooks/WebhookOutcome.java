package com.payorch.webhooks;

import java.util.Locale;

/** What became of a webhook, as answered to the gateway: `{"status": "applied"}` etc. */
public enum WebhookOutcome {
    /** It changed the payment. */
    APPLIED,
    /** Late or out of order, or contradicting a terminal state: recorded, counted, nothing changed. */
    IGNORED,
    /** Amount or currency differ from the payment's: recorded and counted as an anomaly, nothing changed. */
    REJECTED,
    /** This webhook id was already received; nothing changed. */
    DUPLICATE;

    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }
}
