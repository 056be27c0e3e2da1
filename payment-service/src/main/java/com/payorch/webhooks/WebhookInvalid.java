package com.payorch.webhooks;

import com.payorch.support.Refusal;

/** A correctly signed webhook whose body is malformed or of an unknown type. */
public class WebhookInvalid extends Refusal {

    public WebhookInvalid(String detail) {
        super("webhook_invalid", detail);
    }
}
