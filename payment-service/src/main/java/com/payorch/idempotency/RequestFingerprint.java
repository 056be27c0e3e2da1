package com.payorch.idempotency;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** SHA-256 over the method, the path and the canonical JSON body: equal requests, equal fingerprints. */
public final class RequestFingerprint {

    private RequestFingerprint() {
    }

    public static String of(String method, String path, byte[] canonicalBody) {
        try {
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            sha256.update(method.getBytes(StandardCharsets.UTF_8));
            sha256.update((byte) 0);
            sha256.update(path.getBytes(StandardCharsets.UTF_8));
            sha256.update((byte) 0);
            sha256.update(canonicalBody);
            return HexFormat.of().formatHex(sha256.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JRE", e);
        }
    }
}
