package com.payorch.support;

import java.security.SecureRandom;

/** Opaque, prefixed, unguessable ids: `pay_…`, `evt_…`, `ch_…`. */
public final class Ids {

    private static final char[] ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".toCharArray();
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final int RANDOM_CHARS = 24; // ~143 bits

    private Ids() {
    }

    public static String payment() {
        return withPrefix("pay_");
    }

    public static String event() {
        return withPrefix("evt_");
    }

    public static String charge() {
        return withPrefix("ch_");
    }

    /** A new id with this prefix, e.g. `wd_…` for merchant webhook deliveries. */
    public static String withPrefix(String prefix) {
        StringBuilder id = new StringBuilder(prefix.length() + RANDOM_CHARS).append(prefix);
        for (int i = 0; i < RANDOM_CHARS; i++) {
            id.append(ALPHABET[RANDOM.nextInt(ALPHABET.length)]);
        }
        return id.toString();
    }
}
