package com.payorch.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.springframework.stereotype.Component;

/**
 * Finds the merchant an API key belongs to. Keys are compared as SHA-256 digests with {@link MessageDigest#isEqual}
 * against every configured key, so the time taken says nothing about how much of a key matched or which one. A key
 * may be configured as itself ({@code payments.merchants.<id>.api-key}) or as its digest
 * ({@code payments.merchants.<id>.api-key-sha256}, 64 hex digits), so the plain key need not be in the
 * configuration at all.
 */
@Component
public class ApiKeys {

    private static final Pattern SHA256_HEX = Pattern.compile("[0-9A-Fa-f]{64}");

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

    /**
     * The merchant's configured key as a digest; refuses (at start-up) a digest that is not 64 hex digits and a
     * merchant with both forms, naming the configuration key.
     */
    static Optional<Digest> digestOf(String merchantId, MerchantProperties.Merchant merchant) {
        String plain = merchant.getApiKey();
        String hashed = merchant.getApiKeySha256();
        boolean hasPlain = plain != null && !plain.isBlank();
        boolean hasHashed = hashed != null && !hashed.isBlank();
        String prefix = "payments.merchants." + merchantId + ".";
        if (hasPlain && hasHashed) {
            throw new IllegalStateException(prefix + "api-key and " + prefix + "api-key-sha256 are both set; "
                    + "configure one of them");
        }
        if (hasHashed) {
            String hex = hashed.trim();
            if (!SHA256_HEX.matcher(hex).matches()) {
                throw new IllegalStateException(prefix + "api-key-sha256 must be the SHA-256 digest of the key as 64 "
                        + "hexadecimal digits (e.g. printf %s \"$KEY\" | sha256sum); it has " + hex.length()
                        + " characters" + (hex.length() == 64 ? ", not all hexadecimal" : ""));
            }
            return Optional.of(new Digest(HexFormat.of().parseHex(hex.toLowerCase(java.util.Locale.ROOT))));
        }
        return hasPlain ? Optional.of(Digest.of(plain)) : Optional.empty();
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
