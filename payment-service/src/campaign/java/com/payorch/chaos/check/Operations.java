package com.payorch.chaos.check;

import com.payorch.chaos.history.HistoryEntry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The history's client operations, each an INVOKE paired with the ANSWERED or LOST entry of the same process that
 * follows it (a process has one request in flight at a time). The request is the ANSWERED entry's own when it carries
 * one, else the INVOKE's. The kind of a request is decided by its method and path, not by the operation's name.
 */
final class Operations {

    enum Kind { CREATE, RETRY, REFUND, CAPTURE, CANCEL, OTHER }

    /** One completed client request. {@code answer} is the ANSWERED or LOST entry. */
    record Operation(HistoryEntry invoke, HistoryEntry answer, Kind kind, String method, String path,
                     Map<String, String> requestHeaders, String requestBody) {

        boolean acknowledged() {
            return answer.acknowledged();
        }

        String header(String name) {
            return Operations.header(requestHeaders, name);
        }

        /** The Idempotency-Key as sent, quotes removed (the contract's quoted form is the same key). */
        String idempotencyKey() {
            String key = header("Idempotency-Key");
            if (key != null && key.length() >= 2 && key.startsWith("\"") && key.endsWith("\"")) {
                return key.substring(1, key.length() - 1);
            }
            return key;
        }

        String authorization() {
            return header("Authorization");
        }

        /** The payment id named by a retry's, refund's, capture's or cancel's path. */
        String paymentIdInPath() {
            Matcher matcher = PAYMENT_PATH.matcher(path == null ? "" : path);
            return matcher.find() ? matcher.group(1) : null;
        }

        JsonNode responseJson() {
            return json(answer.responseBody());
        }

        JsonNode requestJson() {
            return json(requestBody);
        }
    }

    private static final Pattern PAYMENT_PATH = Pattern.compile("^/v1/payments/([^/?]+)/");
    static final JsonMapper JSON = new JsonMapper();

    private Operations() {
    }

    static List<Operation> of(List<HistoryEntry> history) {
        Map<String, HistoryEntry> open = new HashMap<>();
        List<Operation> operations = new ArrayList<>();
        for (HistoryEntry entry : history) {
            if (entry.kind() == HistoryEntry.Kind.INVOKE) {
                open.put(entry.process(), entry);
            } else if (entry.kind() == HistoryEntry.Kind.ANSWERED || entry.kind() == HistoryEntry.Kind.LOST) {
                HistoryEntry invoke = open.remove(entry.process());
                HistoryEntry request = entry.method() != null ? entry : invoke;
                if (request == null) {
                    continue;
                }
                String method = request.method();
                String path = request.path();
                operations.add(new Operation(invoke == null ? entry : invoke, entry, kindOf(method, path), method,
                        path, request.requestHeaders() == null ? Map.of() : request.requestHeaders(),
                        request.requestBody()));
            }
        }
        return operations;
    }

    static Kind kindOf(String method, String path) {
        if (method == null || path == null || !method.equalsIgnoreCase("POST")) {
            return Kind.OTHER;
        }
        String bare = path.split("\\?", 2)[0];
        if (bare.equals("/v1/payments")) {
            return Kind.CREATE;
        }
        if (bare.matches("/v1/payments/[^/]+/retry")) {
            return Kind.RETRY;
        }
        if (bare.matches("/v1/payments/[^/]+/refunds")) {
            return Kind.REFUND;
        }
        if (bare.matches("/v1/payments/[^/]+/capture")) {
            return Kind.CAPTURE;
        }
        if (bare.matches("/v1/payments/[^/]+/cancel")) {
            return Kind.CANCEL;
        }
        return Kind.OTHER;
    }

    static String header(Map<String, String> headers, String name) {
        if (headers == null) {
            return null;
        }
        for (Map.Entry<String, String> header : headers.entrySet()) {
            if (header.getKey() != null && header.getKey().toLowerCase(Locale.ROOT)
                    .equals(name.toLowerCase(Locale.ROOT))) {
                return header.getValue();
            }
        }
        return null;
    }

    static JsonNode json(String body) {
        if (body == null || body.isBlank()) {
            return JSON.missingNode();
        }
        try {
            return JSON.readTree(body);
        } catch (RuntimeException e) {
            return JSON.missingNode();
        }
    }
}
