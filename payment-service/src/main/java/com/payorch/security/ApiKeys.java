package com.payorch.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * Finds the merchant an API key belongs to. Keys are compared as SHA-256 digests with {@link MessageDigest#isEqual}
 * against every configured key, so the time taken says nothing about how much of a key matched or which one.
 */
@Component
public class ApiKeys {

    private record KeyDigest(String merchantId, byte[] digest) {
    }

    private final List<KeyDigest> keys;

    public ApiKeys(MerchantProperties properties) {
        this.keys = properties.getMerchants().entrySet().stream()
                .filter(entry -> entry.getValue().getApiKey() != null && !entry.getValue().getApiKey().isBlank())
                .map(entry -> new KeyDigest(entry.getKey(), sha256(entry.getValue().getApiKey())))
                .toList();
    }

    public Optional<String> merchantFor(String presentedKey) {
        byte[] presented = sha256(presentedKey);
        String match = null;
        for (KeyDigest key : keys) {
            if (MessageDigest.isEqual(key.digest(), presented)) {
                match = key.merchantId();
            }
        }
        return Optional.ofNullable(match);
    }

    private static byte[] sha256(String value) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JRE", e);
        }
    }
}
