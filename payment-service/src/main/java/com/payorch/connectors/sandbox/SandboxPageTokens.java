package com.payorch.connectors.sandbox;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.springframework.stereotype.Component;

/**
 * The one-time tokens of the sandbox's 3-D Secure page: `<nonce>.<HMAC-SHA256 over charge id and nonce>`, keyed with
 * the sandbox webhook secret, so any instance can check a token another one issued, and a token is good for its
 * charge only. That it is used once is the database's business ({@link SandboxCustomerAction}).
 */
@Component
public class SandboxPageTokens {

    private static final String ALGORITHM = "HmacSHA256";
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final int NONCE_BYTES = 18;
    private static final int MAX_TOKEN = 200;

    private final SecretKeySpec key;
    private final SecureRandom random = new SecureRandom();

    public SandboxPageTokens(SandboxGatewayProperties properties) {
        this.key = new SecretKeySpec(properties.webhookSecret().getBytes(StandardCharsets.UTF_8), ALGORITHM);
    }

    /** A fresh token for one page view of the charge. */
    public String issue(String chargeId) {
        byte[] nonce = new byte[NONCE_BYTES];
        random.nextBytes(nonce);
        String nonceText = ENCODER.encodeToString(nonce);
        return nonceText + "." + ENCODER.encodeToString(mac(chargeId, nonceText));
    }

    /** The token's nonce when the token was issued for this charge; empty when it is malformed or forged. */
    public Optional<String> nonceOf(String chargeId, String token) {
        if (token == null || token.length() > MAX_TOKEN) {
            return Optional.empty();
        }
        int dot = token.indexOf('.');
        if (dot <= 0 || dot == token.length() - 1) {
            return Optional.empty();
        }
        String nonce = token.substring(0, dot);
        byte[] presented;
        try {
            presented = Base64.getUrlDecoder().decode(token.substring(dot + 1));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        return MessageDigest.isEqual(presented, mac(chargeId, nonce)) ? Optional.of(nonce) : Optional.empty();
    }

    private byte[] mac(String chargeId, String nonce) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            return mac.doFinal(("sandbox-page." + chargeId + "." + nonce).getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA256 is not available", e);
        }
    }
}
