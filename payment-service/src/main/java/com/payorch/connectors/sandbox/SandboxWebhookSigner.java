package com.payorch.connectors.sandbox;

import com.payorch.signing.WebhookHeaders;
import com.payorch.signing.WebhookSecret;
import java.time.Instant;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;

/**
 * Signs the sandbox's webhook deliveries (Standard Webhooks v1) with the configured secret. Tests sign their own
 * webhooks with the spec's library directly (testsupport.SignedWebhooks), not with this class.
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
        HttpHeaders headers = new HttpHeaders();
        headers.set(WebhookHeaders.ID, webhookId);
        headers.set(WebhookHeaders.TIMESTAMP, Long.toString(at.getEpochSecond()));
        headers.set(WebhookHeaders.SIGNATURE, secret.sign(webhookId, at.getEpochSecond(), body));
        return headers;
    }
}
