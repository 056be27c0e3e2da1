package com.payorch.signing;

/** The Standard Webhooks headers the gateway's webhooks carry. */
public final class WebhookHeaders {

    public static final String ID = "webhook-id";
    public static final String TIMESTAMP = "webhook-timestamp";
    public static final String SIGNATURE = "webhook-signature";

    private WebhookHeaders() {
    }
}
