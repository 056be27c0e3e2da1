package com.payorch.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.chaos.history.HistoryEntry;
import com.payorch.testsupport.PostgresPair;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The 503 window of a failover is read from the history: from the kill to the first acknowledged write sent after
 * it; requests sent before the kill, reads and the next failover's requests do not count.
 */
class FailoverWindowsIT {

    private final List<HistoryEntry> history = new ArrayList<>();

    @Test
    void theWindowEndsAtTheFirstAcknowledgedWriteSentAfterTheKill() {
        request("c3", "i3", "POST", 900, 201, 1_050);   // sent before the kill: acknowledged, but not after it
        request("c1", "i1", "POST", 1_100, 503, 1_150);
        request("c4", "i3", "GET", 1_110, 200, 1_130);  // a read is no write
        request("c2", "i2", "POST", 1_200, null, 1_300); // lost
        request("c1", "i1", "POST", 1_400, 201, 1_500);
        request("c2", "i2", "POST", 2_000, 201, 2_500);
        request("c5", "i3", "POST", 6_000, 201, 6_100);  // after the next failover's kill
        List<PostgresPair.Failover> failovers = List.of(
                new PostgresPair.Failover(1, "pg-a", "pg-b", 1_000, 1_400, 9_000L, "pg_rewind"),
                new PostgresPair.Failover(2, "pg-b", "pg-a", 5_000, 5_300, null, null));

        List<FailoverWindows.Window> windows = FailoverWindows.of(failovers, history);

        FailoverWindows.Window first = windows.get(0);
        assertThat(first.windowMillis()).isEqualTo(500);
        assertThat(first.byInstance()).isEqualTo(Map.of("i1", 500L, "i2", 1_500L));
        assertThat(first.requests()).isEqualTo(4);
        assertThat(first.answered503()).isEqualTo(1);
        assertThat(first.lost()).isEqualTo(1);
        assertThat(first.promotedAfterMillis()).isEqualTo(400);
        assertThat(first.standbyAgainAfterMillis()).isEqualTo(8_000);
        assertThat(first.line()).contains("503 window 500 ms").contains("1 answered 503");
        assertThat(windows.get(1).windowMillis()).isEqualTo(1_100);
        assertThat(windows.get(1).standbyAgainAfterMillis()).isNull();
    }

    @Test
    void aFailoverAfterWhichNoWriteWasAcknowledgedHasNoWindow() {
        request("c1", "i1", "POST", 1_100, 503, 1_150);
        request("c1", "i1", "POST", 1_200, 500, 1_250);

        FailoverWindows.Window window = FailoverWindows.of(List.of(
                new PostgresPair.Failover(1, "pg-a", "pg-b", 1_000, 1_400, null, null)), history).get(0);

        assertThat(window.windowMillis()).isNull();
        assertThat(window.otherServerErrors()).isEqualTo(1);
        assertThat(window.line()).contains("NOT CLOSED");
    }

    private void request(String process, String instance, String method, long sentAt, Integer status,
                         long answeredAt) {
        history.add(new HistoryEntry(history.size(), sentAt, HistoryEntry.Kind.INVOKE, process, "op", instance, method,
                "/v1/payments", null, null, null, null, null, null));
        history.add(new HistoryEntry(history.size(), answeredAt, status == null ? HistoryEntry.Kind.LOST
                : HistoryEntry.Kind.ANSWERED, process, "op", instance, method, "/v1/payments", null, null, status,
                null, null, null));
    }
}
