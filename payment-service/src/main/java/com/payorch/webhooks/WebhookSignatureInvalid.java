package com.payorch.webhooks;

import com.payorch.support.Refusal;

/** The webhook's signature does not verify; nothing is recorded, and the answer never says which part failed. */
public class WebhookSignatureInvalid extends Refusal {

    public WebhookSignatureInvalid() {
        super("webhook_signature_invalid", "The webhook signature could not be verified.");
    }
}
