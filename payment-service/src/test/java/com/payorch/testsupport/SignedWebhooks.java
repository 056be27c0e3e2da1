package com.payorch.testsupport;

import com.standardwebhooks.Webhook;
import com.standardwebhooks.exceptions.WebhookSigningException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.springframework.http.HttpHeaders;

/**
 * The one way tests sign webhooks: as a Standard Webhooks sender does, with the spec's own library
 * ({@link Webhook#sign}), independent of the service's signing and verifying code.
 */
public final class SignedWebhooks {

    private SignedWebhooks() {
    }

    /** `webhook-id`, `webhook-timestamp` and `webhook-signature` for this body, signed with `secret`. */
    public static HttpHeaders sign(String secret, String webhookId, Instant at, String body) {
        HttpHeaders headers = new HttpHeaders();
        headers.set("webhook-id", webhookId);
        headers.set("webhook-timestamp", Long.toString(at.getEpochSecond()));
        headers.set("webhook-signature", signature(secret, webhookId, at, body));
        return headers;
    }

    /** The same for a body given as (UTF-8) bytes. */
    public static HttpHeaders sign(String secret, String webhookId, Instant at, byte[] body) {
        return sign(secret, webhookId, at, new String(body, StandardCharsets.UTF_8));
    }

    /** One `v1,<base64>` entry, e.g. to build a `webhook-signature` that lists several (a secret rotation). */
    public static String signature(String secret, String webhookId, Instant at, String body) {
        try {
            return new Webhook(secret).sign(webhookId, at.getEpochSecond(), body);
        } catch (WebhookSigningException e) {
            throw new IllegalStateException(e);
        }
    }
}
