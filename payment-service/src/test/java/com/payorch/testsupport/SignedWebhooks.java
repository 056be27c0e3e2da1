package com.payorch.testsupport;

import com.standardwebhooks.Webhook;
import java.time.Instant;
import org.springframework.http.HttpHeaders;

/** Signs a webhook body the way a Standard Webhooks sender does, with the spec's own library. */
public final class SignedWebhooks {

    private SignedWebhooks() {
    }

    public static HttpHeaders sign(String secret, String webhookId, Instant at, String body) {
        try {
            HttpHeaders headers = new HttpHeaders();
            headers.set("webhook-id", webhookId);
            headers.set("webhook-timestamp", Long.toString(at.getEpochSecond()));
            headers.set("webhook-signature", new Webhook(secret).sign(webhookId, at.getEpochSecond(), body));
            return headers;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
