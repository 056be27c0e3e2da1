package com.payorch.gateway;

/** How a connector expects its webhook requests to be answered once they are verified and handled. */
public enum WebhookAcknowledgement {
    /** `{"status": "<what became of the first notification>"}` (`ignored` when the request carried none). */
    STATUS_JSON,
    /** The text `[accepted]`, whatever became of each notification of the batch (Adyen's convention). */
    ACCEPTED_TEXT
}
