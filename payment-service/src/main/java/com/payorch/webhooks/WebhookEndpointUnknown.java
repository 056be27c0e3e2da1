package com.payorch.webhooks;

import com.payorch.support.Refusal;

/** A webhook for a merchant that does not exist or has no account at that connector: 404, nothing recorded. */
public class WebhookEndpointUnknown extends Refusal {

    public WebhookEndpointUnknown() {
        super("not_found", "No such webhook endpoint.");
    }
}
