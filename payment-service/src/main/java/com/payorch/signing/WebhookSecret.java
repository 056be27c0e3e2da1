package com.payorch.signing;

import com.standardwebhooks.Webhook;
import com.standardwebhooks.exceptions.WebhookSigningException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * A Standard Webhooks secret (`whsec_<base64>`) and the v1 signature it makes, computed by the standardwebhooks
 * library. Never shows its value: not in {@link #toString()}, not in an error message.
 */
public final class WebhookSecret {

    private static final String PREFIX = "whsec_";
    private static final String V1 = "v1,";

    private final Webhook webhook;

    private WebhookSecret(Webhook webhook) {
        this.webhook = webhook;
    }

    /** @throws IllegalArgumentException unless the value is `whsec_` followed by non-empty base64 */
    public static WebhookSecret parse(String value) {
        if (value == null || !value.startsWith(PREFIX)) {
            throw new IllegalArgumentException("A webhook secret must start with 'whsec_'.");
        }
        byte[] key;
        try {
            key = Base64.getDecoder().decode(value.substring(PREFIX.length()));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("A webhook secret must be 'whsec_' followed by base64.");
        }
        if (key.length == 0) {
            throw new IllegalArgumentException("A webhook secret must not be empty.");
        }
        return new WebhookSecret(new Webhook(key));
    }

    /**
     * `v1,<base64 HMAC-SHA256>` over `<id>.<timestamp>.<body>`.
     *
     * @throws IllegalArgumentException when the body is not UTF-8: the library signs a String, and only valid UTF-8
     *                                  turns back into exactly the bytes that were sent
     */
    public String sign(String webhookId, long timestampSeconds, byte[] body) {
        try {
            return webhook.sign(webhookId, timestampSeconds, strictUtf8(body));
        } catch (WebhookSigningException e) {
            throw new IllegalStateException("HMAC-SHA256 is not available", e);
        }
    }

    /** The raw HMAC bytes of {@link #sign}, for a constant-time comparison with a presented signature. */
    byte[] hmac(String webhookId, long timestampSeconds, byte[] body) {
        return Base64.getDecoder().decode(sign(webhookId, timestampSeconds, body).substring(V1.length()));
    }

    private static String strictUtf8(byte[] body) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(body))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("A webhook body must be UTF-8.");
        }
    }

    @Override
    public String toString() {
        return "WebhookSecret[redacted]";
    }
}
