package com.payorch.gateway.sandbox;

import com.payorch.signing.WebhookHeaders;
import com.payorch.signing.WebhookSecret;
import java.time.Instant;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;

/**
 * Signs webhooks the way the sandbox gateway does (Standard Webhooks v1): what the sandbox's deliveries send, and
 * what tests use to send webhooks of their own, with the configured secret or with any other one.
 */
@Component
public class SandboxWebhookSigner {

    private final WebhookSecret secret;

    public SandboxWebhookSigner(SandboxGatewayProperties properties) {
        this.secret = WebhookSecret.parse(properties.webhookSecret());
    }

    /**
     * `webhook-id`, `webhook-timestamp` and `webhook-signature` for this body, signed with the configured secret.
     *
     * @throws IllegalArgumentException when the body is not UTF-8
     */
    public HttpHeaders sign(String webhookId, Instant at, byte[] body) {
        return headers(webhookId, at, signature(secret, webhookId, at, body));
    }

    /** The same three headers signed with another secret (`whsec_<base64>`): a wrong or rotated secret. */
    public static HttpHeaders signWith(String secret, String webhookId, Instant at, byte[] body) {
        return headers(webhookId, at, signature(secret, webhookId, at, body));
    }

    /** One `v1,<base64>` entry, to build a `webhook-signature` that lists several (a secret rotation). */
    public static String signature(String secret, String webhookId, Instant at, byte[] body) {
        return signature(WebhookSecret.parse(secret), webhookId, at, body);
    }

    private static String signature(WebhookSecret secret, String webhookId, Instant at, byte[] body) {
        return secret.sign(webhookId, at.getEpochSecond(), body);
    }

    private static HttpHeaders headers(String webhookId, Instant at, String signature) {
        HttpHeaders headers = new HttpHeaders();
        headers.set(WebhookHeaders.ID, webhookId);
        headers.set(WebhookHeaders.TIMESTAMP, Long.toString(at.getEpochSecond()));
        headers.set(WebhookHeaders.SIGNATURE, signature);
        return headers;
    }
}
