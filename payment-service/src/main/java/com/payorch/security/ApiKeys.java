package com.payorch.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * Finds the merchant an API key belongs to. Keys are compared as SHA-256 digests with {@link MessageDigest#isEqual}
 * against every configured key, so the time taken says nothing about how much of a key matched or which one.
 */
@Component
public class ApiKeys {

    /** A key's SHA-256 digest; compares a presented key in constant time. */
    record Digest(byte[] value) {

        static Digest of(String key) {
            return new Digest(sha256(key));
        }

        boolean matches(String presented) {
            return MessageDigest.isEqual(value, sha256(presented));
        }
    }

    private record MerchantKey(String merchantId, Digest digest) {
    }

    private final List<MerchantKey> keys;

    public ApiKeys(MerchantProperties properties) {
        List<MerchantKey> configured = new ArrayList<>();
        for (Map.Entry<String, MerchantProperties.Merchant> entry : properties.getMerchants().entrySet()) {
            digestOf(entry.getKey(), entry.getValue())
                    .ifPresent(digest -> configured.add(new MerchantKey(entry.getKey(), digest)));
        }
        this.keys = List.copyOf(configured);
    }

    static Optional<Digest> digestOf(String merchantId, MerchantProperties.Merchant merchant) {
        String plain = merchant.getApiKey();
        return plain != null && !plain.isBlank() ? Optional.of(Digest.of(plain)) : Optional.empty();
    }

    public Optional<String> merchantFor(String presentedKey) {
        byte[] presented = sha256(presentedKey);
        String match = null;
        for (MerchantKey key : keys) {
            if (MessageDigest.isEqual(key.digest().value(), presented)) {
                match = key.merchantId();
            }
        }
        return Optional.ofNullable(match);
    }

    static byte[] sha256(String value) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JRE", e);
        }
    }
}
