package com.payorch.chaos.check;

import com.payorch.chaos.CampaignFacts;
import com.payorch.chaos.history.HistoryEntry;
import java.util.List;
import java.util.Set;

/** Reads a campaign's history and final state and proves its invariants. (Placeholder: checks nothing yet.) */
public final class Checker {

    private Checker() {
    }

    public static Report check(CampaignFacts facts, List<HistoryEntry> history) {
        return new Report(List.of());
    }

    /**
     * @param offendingKeys payment ids, idempotency keys or booking ids that break the invariant, to pick the
     *        offending entries out of the history
     */
    public record InvariantResult(String name, boolean passed, String detail, Set<String> offendingKeys) {
    }

    public record Report(List<InvariantResult> results) {

        public long passed() {
            return results.stream().filter(InvariantResult::passed).count();
        }

        public long failed() {
            return results.size() - passed();
        }

        /** One line per invariant, then {@code "N passed, M failed"}. */
        public List<String> lines() {
            var lines = new java.util.ArrayList<String>();
            results.forEach(result -> lines.add((result.passed() ? "PASS " : "FAIL ") + result.name()
                    + (result.detail() == null || result.detail().isBlank() ? "" : ": " + result.detail())));
            lines.add(passed() + " passed, " + failed() + " failed");
            return lines;
        }
    }
}
