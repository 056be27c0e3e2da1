package com.payorch.webhooks;

import com.standardwebhooks.Webhook;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;

/** TEMPORARY until the sandbox-webhooks branch lands (it replaces this file). */
@Component
public class WebhookSignatureVerifier {

    private final Webhook webhook;
    private final Clock clock;

    public WebhookSignatureVerifier(
            @Value("${payments.gateway.sandbox.webhook-secret:whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw}") String secret,
            Clock clock) {
        this.webhook = new Webhook(secret);
        this.clock = clock;
    }

    public boolean isValid(HttpHeaders headers, byte[] rawBody) {
        try {
            String id = headers.getFirst("webhook-id");
            long ts = Long.parseLong(headers.getFirst("webhook-timestamp"));
            if (Math.abs(clock.instant().getEpochSecond() - ts) > 300) {
                return false;
            }
            byte[] expected = webhook.sign(id, ts, new String(rawBody, StandardCharsets.UTF_8))
                    .getBytes(StandardCharsets.UTF_8);
            for (String candidate : headers.getFirst("webhook-signature").split(" ")) {
                if (MessageDigest.isEqual(expected, candidate.getBytes(StandardCharsets.UTF_8))) {
                    return true;
                }
            }
            return false;
        } catch (Exception e) {
            return false;
        }
    }
}
