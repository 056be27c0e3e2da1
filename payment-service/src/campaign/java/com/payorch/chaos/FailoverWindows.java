package com.payorch.chaos;

import com.payorch.chaos.history.HistoryEntry;
import com.payorch.testsupport.PostgresPair;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What the clients saw of each primary failover, from the history: the unavailability window, from the kill of the
 * primary to the first acknowledged (2xx) write a client sent after it ({@code POST /v1/payments…}: a create, retry,
 * capture, cancel, refund, customer action), and the answers in that window: 503s (the service saying the database
 * is unavailable), other 5xx, and requests without an answer. A failover after which no write was acknowledged before the next one (or the end) has no window.
 */
public final class FailoverWindows {

    /**
     * @param windowMillis from the kill to the first acknowledged write sent after it; null: none before the next
     *        failover or the end of the history
     * @param byInstance for each instance that acknowledged a write sent after the kill (before the next failover):
     *        when the first came, from the kill (an instance down at the time, say, has none)
     * @param requests client requests answered (or lost) within the window (until the next failover or the end
     *        when it has none)
     */
    public record Window(int number, String from, String to, long promotedAfterMillis, @Nullable Long windowMillis,
                         Map<String, Long> byInstance, int requests, int answered503, int otherServerErrors,
                         int lost, @Nullable Long standbyAgainAfterMillis, @Nullable String rebuiltBy) {

        public String line() {
            return "failover " + number + " (" + from + " -> " + to + "): promoted " + promotedAfterMillis
                    + " ms after the kill; 503 window " + (windowMillis == null ? "NOT CLOSED (no acknowledged write)"
                    : windowMillis + " ms (kill to the first acknowledged write; by instance " + byInstance + ")")
                    + ", in it " + requests
                    + " requests: " + answered503 + " answered 503, " + otherServerErrors + " other 5xx, " + lost
                    + " lost; synchronous standby again " + (standbyAgainAfterMillis == null ? "never"
                    : standbyAgainAfterMillis + " ms after the kill (" + rebuiltBy + ")");
        }

        public Map<String, Object> asMap() {
            Map<String, Object> map = new LinkedHashMap<>();
            map.put("number", number);
            map.put("from", from);
            map.put("to", to);
            map.put("promotedAfterMillis", promotedAfterMillis);
            map.put("windowMillis", windowMillis);
            map.put("windowMillisByInstance", byInstance);
            map.put("requestsInWindow", requests);
            map.put("answered503", answered503);
            map.put("otherServerErrors", otherServerErrors);
            map.put("lost", lost);
            map.put("standbyAgainAfterMillis", standbyAgainAfterMillis);
            map.put("rebuiltBy", rebuiltBy);
            return map;
        }
    }

    private FailoverWindows() {
    }

    /** One window per failover, in order; {@code history} in the order it was recorded. */
    public static List<Window> of(List<PostgresPair.Failover> failovers, List<HistoryEntry> history) {
        List<Window> windows = new ArrayList<>();
        for (int i = 0; i < failovers.size(); i++) {
            PostgresPair.Failover failover = failovers.get(i);
            long until = i + 1 < failovers.size() ? failovers.get(i + 1).killedAtMillis() : Long.MAX_VALUE;
            windows.add(window(failover, until, history));
        }
        return windows;
    }

    private static Window window(PostgresPair.Failover failover, long until, List<HistoryEntry> history) {
        long killedAt = failover.killedAtMillis();
        List<HistoryEntry[]> requests = requestsSentBetween(history, killedAt, until);
        Long firstAcknowledged = null;
        Map<String, Long> byInstance = new java.util.TreeMap<>();
        for (HistoryEntry[] request : requests) {
            HistoryEntry answer = request[1];
            if (answer.acknowledged() && isWrite(request[0], answer)) {
                if (firstAcknowledged == null || answer.atMillis() < firstAcknowledged) {
                    firstAcknowledged = answer.atMillis();
                }
                byInstance.merge(String.valueOf(request[0].target()), answer.atMillis() - killedAt, Math::min);
            }
        }
        long closedAt = firstAcknowledged == null ? until : firstAcknowledged;
        int inWindow = 0;
        int unavailable = 0;
        int serverErrors = 0;
        int lost = 0;
        for (HistoryEntry[] request : requests) {
            HistoryEntry answer = request[1];
            if (answer.atMillis() > closedAt) {
                continue;
            }
            inWindow++;
            if (answer.kind() == HistoryEntry.Kind.LOST) {
                lost++;
            } else if (answer.status() != null && answer.status() == 503) {
                unavailable++;
            } else if (answer.status() != null && answer.status() >= 500) {
                serverErrors++;
            }
        }
        return new Window(failover.number(), failover.from(), failover.to(),
                failover.promotedAtMillis() - killedAt, firstAcknowledged == null ? null : firstAcknowledged - killedAt,
                byInstance, inWindow, unavailable, serverErrors, lost,
                failover.standbyAgainAtMillis() == null ? null : failover.standbyAgainAtMillis() - killedAt,
                failover.rebuiltBy());
    }

    /** Each request (INVOKE, then its ANSWERED or LOST entry) whose INVOKE is in [from, until). */
    private static List<HistoryEntry[]> requestsSentBetween(List<HistoryEntry> history, long from, long until) {
        Map<String, HistoryEntry> open = new HashMap<>();
        List<HistoryEntry[]> requests = new ArrayList<>();
        for (HistoryEntry entry : history) {
            if (entry.kind() == HistoryEntry.Kind.INVOKE) {
                open.put(entry.process(), entry);
            } else if (entry.kind() == HistoryEntry.Kind.ANSWERED || entry.kind() == HistoryEntry.Kind.LOST) {
                HistoryEntry invoke = open.remove(entry.process());
                if (invoke != null && invoke.atMillis() >= from && invoke.atMillis() < until) {
                    requests.add(new HistoryEntry[] {invoke, entry});
                }
            }
        }
        return requests;
    }

    private static boolean isWrite(HistoryEntry invoke, HistoryEntry answer) {
        String method = answer.method() != null ? answer.method() : invoke.method();
        String path = answer.path() != null ? answer.path() : invoke.path();
        return "POST".equalsIgnoreCase(method) && path != null && path.startsWith("/v1/payments");
    }
}
