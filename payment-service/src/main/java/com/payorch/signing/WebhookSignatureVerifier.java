package com.payorch.signing;


import java.security.MessageDigest;
import java.time.Clock;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.springframework.http.HttpHeaders;

/**
 * Checks the Standard Webhooks signature of a gateway webhook on its raw bytes, before anything parses them.
 * Valid when any listed `v1` signature is the HMAC of `<webhook-id>.<webhook-timestamp>.<body>` under the configured
 * secret and the timestamp is within {@value #TOLERANCE_SECONDS} s of the clock, either way. Everything else,
 * including garbled input, is simply invalid: this never throws and never logs the body or the secret.
 */
public class WebhookSignatureVerifier {

    static final long TOLERANCE_SECONDS = 300;
    private static final Pattern UNIX_SECONDS = Pattern.compile("0|[1-9][0-9]{0,17}");
    private static final Pattern SIGNATURE_SEPARATOR = Pattern.compile(" +");

    private final WebhookSecret secret;
    private final Clock clock;

    public WebhookSignatureVerifier(String secret, Clock clock) {
        this.secret = WebhookSecret.parse(secret);
        this.clock = clock;
    }

    public boolean isValid(HttpHeaders headers, byte[] rawBody) {
        try {
            return check(headers, rawBody);
        } catch (RuntimeException e) {
            return false;
        }
    }

    private boolean check(HttpHeaders headers, byte[] rawBody) {
        String id = headers.getFirst(WebhookHeaders.ID);
        String timestamp = headers.getFirst(WebhookHeaders.TIMESTAMP);
        List<String> signatures = headers.get(WebhookHeaders.SIGNATURE);
        if (id == null || id.isBlank() || timestamp == null || signatures == null || rawBody == null
                || !UNIX_SECONDS.matcher(timestamp).matches()) {
            return false;
        }
        // The library's Webhook.verify() would check the timestamp against System.currentTimeMillis(); we take only
        // its sign() and judge the timestamp against the injected Clock, so tests can pin the time.
        long seconds = Long.parseLong(timestamp);
        if (Math.abs(clock.instant().getEpochSecond() - seconds) > TOLERANCE_SECONDS) {
            return false;
        }
        byte[] expected;
        try {
            expected = secret.hmac(id, seconds, rawBody);
        } catch (IllegalArgumentException notUtf8) {
            return false;
        }
        return signatures.stream()
                .flatMap(SIGNATURE_SEPARATOR::splitAsStream)
                .map(WebhookSignatureVerifier::v1Signature)
                .flatMap(Optional::stream)
                .anyMatch(presented -> MessageDigest.isEqual(expected, presented));
    }

    /** The HMAC bytes of a `v1,<base64>` entry; nothing for another version or garbled base64. */
    private static Optional<byte[]> v1Signature(String entry) {
        if (!entry.startsWith("v1,")) {
            return Optional.empty();
        }
        try {
            return Optional.of(Base64.getDecoder().decode(entry.substring(3)));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
