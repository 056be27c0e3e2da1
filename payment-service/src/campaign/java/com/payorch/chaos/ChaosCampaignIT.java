package com.payorch.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.chaos.check.Checker;
import com.payorch.chaos.history.History;
import com.payorch.chaos.history.HistoryEntry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a failed campaign leaves behind: the seed, the fault schedule and the history of the offending keys. */
class ChaosCampaignIT {

    @TempDir
    Path out;

    @Test
    void aFailedRunWritesTheSeedTheScheduleAndTheEntriesThatMentionAnOffendingKey() throws Exception {
        List<HistoryEntry> entries = List.of(
                request(0, "c1", "/v1/payments", "key_bad", "{\"bookingId\": \"bk_1\"}", "{\"id\": \"pay_bad\"}"),
                request(1, "c2", "/v1/payments", "key_good", "{\"bookingId\": \"bk_2\"}", "{\"id\": \"pay_good\"}"),
                request(2, "c3", "/v1/payments/pay_bad/refunds", "key_refund", "{\"amount\": 5}", null),
                new HistoryEntry(3, 0, HistoryEntry.Kind.NEMESIS, "nemesis", "kill-instance", "i2", null, null, null,
                        null, null, null, null, "start: SIGKILL pid 1"));
        Checker.Report report = new Checker.Report(List.of(
                new Checker.InvariantResult("one-charge-per-attempt", false, "two charges", Set.of("pay_bad")),
                new Checker.InvariantResult("events-delivered", true, "", Set.of("pay_good"))));

        ChaosCampaign.writeFailure(out, 1234, entries, report);

        assertThat(Files.readString(out.resolve("seed.txt")).trim()).isEqualTo("1234");
        assertThat(Files.readAllLines(out.resolve("faults.jsonl"))).singleElement().asString()
                .contains("kill-instance");
        List<HistoryEntry> offending = History.read(out.resolve("offending-history.jsonl"));
        assertThat(offending).extracting(HistoryEntry::seq).containsExactly(0L, 2L);
        assertThat(Files.readString(out.resolve("failed-invariants.txt"))).contains("one-charge-per-attempt")
                .doesNotContain("events-delivered");
    }

    private static HistoryEntry request(long seq, String process, String path, String key, String body,
                                        String answer) {
        return new HistoryEntry(seq, 0, answer == null ? HistoryEntry.Kind.INVOKE : HistoryEntry.Kind.ANSWERED,
                process, "create", "i1", "POST", path, Map.of("Idempotency-Key", key), body,
                answer == null ? null : 201, null, answer, null);
    }
}
