package com.payorch.chaos.workload;

import com.payorch.chaos.history.History;
import com.payorch.chaos.history.HistoryEntry;
import com.payorch.chaos.history.HistoryEntry.Kind;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.jspecify.annotations.Nullable;

/**
 * Sends the clients' requests and records each in the history: an INVOKE before it is sent, then ANSWERED (status,
 * lower-case response headers, body) or LOST (no answer: time-out, refused, reset, interrupted), always exactly one
 * of them. Completion entries repeat the request (method, path, headers, body) so that each one stands alone.
 * Counts every outcome as "operation status" or "operation lost".
 */
final class Requests {

    /** A request as sent: what a replay needs. */
    record Request(String operation, int instance, String method, String path, Map<String, String> headers,
                   @Nullable String body) {

        Request to(int otherInstance) {
            return new Request(operation, otherInstance, method, path, headers, body);
        }

        Request as(String otherOperation) {
            return new Request(otherOperation, instance, method, path, headers, body);
        }
    }

    /** An answer, or {@code status == -1} when the request was lost. */
    record Answer(int status, Map<String, String> headers, String body, @Nullable String error) {

        boolean lost() {
            return status < 0;
        }

        boolean ok() {
            return status >= 200 && status < 300;
        }

        @Nullable String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    private final List<String> baseUrls;
    private final History history;
    private final HttpClient http;
    private volatile Duration timeout;
    private final Map<String, LongAdder> outcomes = new ConcurrentHashMap<>();

    Requests(List<String> baseUrls, History history, Duration timeout) {
        this.baseUrls = List.copyOf(baseUrls);
        this.history = history;
        this.timeout = timeout;
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(1))
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    Duration timeout() {
        return timeout;
    }

    /** The time-out of the requests sent from now on (the connect time-out stays at most one second). */
    void timeout(Duration timeout) {
        this.timeout = timeout;
    }

    int instances() {
        return baseUrls.size();
    }

    /** Sends the request for {@code process} and records it; blocks until answered or lost. */
    Answer send(String process, Request request) {
        return send(process, request, timeout);
    }

    /** As {@link #send(String, Request)}, waiting at most {@code patience} for the answer. */
    Answer send(String process, Request request, Duration patience) {
        String target = "i" + (request.instance() + 1);
        history.record(new HistoryEntry(0, 0, Kind.INVOKE, process, request.operation(), target, request.method(),
                request.path(), request.headers(), request.body(), null, null, null, null));
        Answer answer;
        try {
            answer = exchange(request, patience);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            answer = new Answer(-1, Map.of(), "", "interrupted");
        } catch (Exception e) {
            answer = new Answer(-1, Map.of(), "", describe(e));
        }
        if (answer.lost()) {
            history.record(new HistoryEntry(0, 0, Kind.LOST, process, request.operation(), target,
                    request.method(), request.path(), request.headers(), request.body(), null, null, null,
                    answer.error()));
            count(request.operation() + " lost");
        } else {
            history.record(new HistoryEntry(0, 0, Kind.ANSWERED, process, request.operation(), target,
                    request.method(), request.path(), request.headers(), request.body(), answer.status(),
                    answer.headers(), answer.body(), null));
            count(request.operation() + " " + answer.status());
        }
        return answer;
    }

    Map<String, Long> outcomes() {
        Map<String, Long> counts = new TreeMap<>();
        outcomes.forEach((outcome, count) -> counts.put(outcome, count.sum()));
        return counts;
    }

    private void count(String outcome) {
        outcomes.computeIfAbsent(outcome, k -> new LongAdder()).increment();
    }

    private Answer exchange(Request request, Duration patience) throws Exception {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(baseUrls.get(request.instance())
                        + request.path()))
                .timeout(patience)
                .method(request.method(), request.body() == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(request.body(), StandardCharsets.UTF_8));
        request.headers().forEach(builder::header);
        HttpResponse<String> response = http.send(builder.build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        Map<String, String> headers = new LinkedHashMap<>();
        response.headers().map().forEach((name, values) -> {
            if (!name.startsWith(":")) {
                headers.put(name.toLowerCase(Locale.ROOT), String.join(", ", values));
            }
        });
        return new Answer(response.statusCode(), headers, response.body(), null);
    }

    private static String describe(Throwable e) {
        StringBuilder text = new StringBuilder(e.getClass().getSimpleName());
        if (e.getMessage() != null) {
            text.append(": ").append(e.getMessage());
        }
        Throwable cause = e.getCause();
        if (cause != null && cause != e) {
            text.append(" (").append(cause.getClass().getSimpleName());
            if (cause.getMessage() != null) {
                text.append(": ").append(cause.getMessage());
            }
            text.append(')');
        }
        return text.toString();
    }
}
