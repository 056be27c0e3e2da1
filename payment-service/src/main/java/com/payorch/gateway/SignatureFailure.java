package com.payorch.gateway;

/** How a connector's webhook request with a bad signature is refused, by the connector's own convention. */
public enum SignatureFailure {
    /** 401 `webhook_signature_invalid` (Standard Webhooks: the sandbox). */
    UNAUTHORIZED,
    /** 400 `webhook_signature_rejected` (Stripe's convention: its CLI and dashboard expect a 400). */
    BAD_REQUEST
}
