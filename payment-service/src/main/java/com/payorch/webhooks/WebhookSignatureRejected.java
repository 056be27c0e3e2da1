package com.payorch.webhooks;

import com.payorch.support.Refusal;

/**
 * A PSP webhook (Stripe) whose signature does not verify: 400 `webhook_signature_rejected`, as Stripe's own
 * integration guide answers; nothing is recorded, and the answer never says which part failed.
 */
public class WebhookSignatureRejected extends Refusal {

    public WebhookSignatureRejected() {
        super("webhook_signature_rejected", "The webhook signature could not be verified.");
    }
}
