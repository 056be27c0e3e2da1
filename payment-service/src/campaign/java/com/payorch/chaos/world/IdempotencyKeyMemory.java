package com.payorch.chaos.world;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a PSP remembers of the idempotency keys it was sent, as seen on the links to it: the first time each
 * {@code Idempotency-Key} passed. While {@link #forget(boolean) forgetting}, a request whose key was first sent more
 * than {@code forgetAfter} ago reaches the PSP under a key it never saw ({@code <key>-forgotten}), so it charges again,
 * as Stripe does with a key older than 24 hours; later sends of that key are replayed by the PSP as usual.
 * {@code forgetAfter} is above the lifetime the service is configured with
 * ({@code payments.connectors.<name>.idempotency-key-lifetime}), as Stripe's 24 hours are above the service's 23: a
 * service that honours the lifetime never meets a forgotten key.
 */
public final class IdempotencyKeyMemory {

    private static final Pattern HEADER = Pattern.compile("(?i)\r\nIdempotency-Key: *([^\r\n]+)\r\n");

    private final Duration forgetAfter;
    private final Map<String, Long> firstSent = new ConcurrentHashMap<>();
    private final AtomicLong forgotten = new AtomicLong();
    private volatile boolean forgetting;

    public IdempotencyKeyMemory(Duration forgetAfter) {
        this.forgetAfter = forgetAfter;
    }

    public void forget(boolean on) {
        forgetting = on;
    }

    /** Requests that reached the PSP under a forgotten key. */
    public long forgotten() {
        return forgotten.get();
    }

    public Duration forgetAfter() {
        return forgetAfter;
    }

    /**
     * The request bytes as the PSP gets them: the same, or with the key replaced when it is forgotten. A header split
     * over two reads is not seen (HTTP/1.1 clients on loopback write a request's headers at once).
     */
    byte[] pass(byte[] chunk, int length) {
        String text = new String(chunk, 0, length, StandardCharsets.ISO_8859_1);
        Matcher header = HEADER.matcher(text);
        if (!header.find()) {
            return null;
        }
        String key = header.group(1).trim();
        long now = System.currentTimeMillis();
        long first = firstSent.computeIfAbsent(key, k -> now);
        if (!forgetting || now - first <= forgetAfter.toMillis()) {
            return null;
        }
        forgotten.incrementAndGet();
        String rewritten = text.substring(0, header.start(1)) + key + "-forgotten" + text.substring(header.end(1));
        return rewritten.getBytes(StandardCharsets.ISO_8859_1);
    }
}
