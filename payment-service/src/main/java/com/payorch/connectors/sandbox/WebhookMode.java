package com.payorch.connectors.sandbox;

/** `payments.gateway.sandbox.webhooks`: whether the sandbox delivers its webhooks itself. */
public enum WebhookMode {
    /** The sandbox delivers signed webhooks over HTTP to `webhook-url`. */
    AUTO,
    /** No webhooks: a test sends them. Charges are still settled, so asking the gateway finds the outcome. */
    OFF
}
