package com.payorch.chaos.workload;

import com.payorch.chaos.history.History;
import java.time.Duration;
import java.util.Map;

/** The campaign's clients. (Placeholder: the workload is being written; it sends nothing yet.) */
public final class Workload {

    public Workload(WorkloadTargets targets, History history, long seed, int clients) {
    }

    /** Runs the clients until {@code duration} has passed, then waits for their last requests; blocks. */
    public Summary run(Duration duration) {
        return new Summary(Map.of());
    }

    /** @param outcomes count per "operation outcome", e.g. "create 201", "create lost" */
    public record Summary(Map<String, Long> outcomes) {
    }
}
