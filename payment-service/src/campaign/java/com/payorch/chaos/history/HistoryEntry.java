package com.payorch.chaos.history;

import java.util.Map;

/**
 * One line of a campaign's history (Jepsen style): a client's request is an {@link Kind#INVOKE} followed by the
 * {@link Kind#ANSWERED} or {@link Kind#LOST} entry of the same {@code process} and {@code operation}; the nemesis
 * writes {@link Kind#NEMESIS} entries when it starts and heals a fault.
 *
 * @param seq order of recording, from 0
 * @param atMillis wall clock (epoch milliseconds) when it was recorded
 * @param kind what happened
 * @param process the client (e.g. {@code "c7"}) or {@code "nemesis"}
 * @param operation {@code create}, {@code retry}, {@code refund}, {@code read}, {@code webhook}… or, for the
 *        nemesis, the fault ({@code kill-instance}, {@code freeze-link}, …)
 * @param target the instance ({@code "i1"}..{@code "i3"}) a request went to, or the fault's target (an instance, a
 *        link such as {@code "db"} or {@code "stripe"})
 * @param method HTTP method of a request (null for the nemesis)
 * @param path path and query of a request
 * @param requestHeaders the request headers that matter for a replay (Authorization, Idempotency-Key, Content-Type,
 *        signature headers), as sent
 * @param requestBody the body as sent (UTF-8), or null
 * @param status HTTP status of an ANSWERED entry, else null
 * @param responseHeaders response headers of an ANSWERED entry (lower-case names), else null
 * @param responseBody the body received (UTF-8), else null
 * @param note free text: the error of a LOST entry (time-out, reset), the fault's detail, "start"/"heal"
 */
public record HistoryEntry(
        long seq,
        long atMillis,
        Kind kind,
        String process,
        String operation,
        String target,
        String method,
        String path,
        Map<String, String> requestHeaders,
        String requestBody,
        Integer status,
        Map<String, String> responseHeaders,
        String responseBody,
        String note) {

    public enum Kind {
        /** A client is about to send a request. */
        INVOKE,
        /** The request got an HTTP answer (any status). */
        ANSWERED,
        /** No answer: time-out, connection refused or reset. The effect may or may not exist (indeterminate). */
        LOST,
        /** The nemesis started or healed a fault. */
        NEMESIS
    }

    public boolean acknowledged() {
        return kind == Kind.ANSWERED && status != null && status >= 200 && status < 300;
    }
}
