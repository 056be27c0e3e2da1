package com.payorch.chaos.check;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Sends a recorded request again, as recorded (method, path, headers, body), to one of the instances, and answers
 * the status and body. Answers that only say "not now" (429, 503, 409 {@code idempotency_request_in_progress}) and
 * connection errors are retried a few times, waiting {@code Retry-After} (at most 5 s) or half a second.
 */
final class Replayer {

    /** @param headers the answer's headers, names in lower case, values of one name joined with ", " */
    record Answer(int status, Map<String, String> headers, String body) {
    }

    /** Headers java.net.http sets itself and refuses from callers. */
    private static final Set<String> RESTRICTED = Set.of("connection", "content-length", "expect", "host", "upgrade",
            "transfer-encoding", "keep-alive", "te", "trailer", "http2-settings");
    private static final int ATTEMPTS = 10;

    private final HttpClient http = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .version(HttpClient.Version.HTTP_1_1)
            .build();
    private final List<String> instances;

    Replayer(List<String> instances) {
        if (instances == null || instances.isEmpty()) {
            throw new IllegalArgumentException("no instance to replay to");
        }
        this.instances = List.copyOf(instances);
    }

    Answer replay(int n, String method, String path, Map<String, String> headers, String body) {
        RuntimeException last = null;
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            String base = instances.get(Math.floorMod(n + attempt, instances.size()));
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                    .timeout(Duration.ofSeconds(30))
                    .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                            : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
            headers.forEach((name, value) -> {
                if (name != null && value != null && !RESTRICTED.contains(name.toLowerCase(Locale.ROOT))) {
                    request.header(name, value);
                }
            });
            try {
                HttpResponse<byte[]> response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
                String text = new String(response.body(), StandardCharsets.UTF_8);
                boolean notNow = response.statusCode() == 429 || response.statusCode() == 503
                        || (response.statusCode() == 409 && text.contains("idempotency_request_in_progress"));
                if (!notNow || attempt == ATTEMPTS - 1) {
                    Map<String, String> answerHeaders = new java.util.TreeMap<>();
                    response.headers().map().forEach((name, values) -> answerHeaders.put(
                            name.toLowerCase(Locale.ROOT), String.join(", ", values)));
                    return new Answer(response.statusCode(), answerHeaders, text);
                }
                pause(response.headers().firstValue("Retry-After").map(Replayer::seconds).orElse(500L));
            } catch (IOException e) {
                last = new IllegalStateException("replay to " + base + " failed: " + e, e);
                pause(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
        throw last == null ? new IllegalStateException("replay failed") : last;
    }

    private static long seconds(String retryAfter) {
        try {
            return Math.min(5_000, Math.max(100, Long.parseLong(retryAfter.trim()) * 1000));
        } catch (NumberFormatException e) {
            return 500;
        }
    }

    /** Waits as the server asked (Retry-After) before the next try: a client's backoff, not a test's timing. */
    private static void pause(long millis) {
        java.util.concurrent.CompletableFuture.runAsync(() -> { },
                java.util.concurrent.CompletableFuture.delayedExecutor(millis,
                        java.util.concurrent.TimeUnit.MILLISECONDS)).join();
    }
}
