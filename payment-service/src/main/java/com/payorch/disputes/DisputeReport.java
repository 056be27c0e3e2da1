package com.payorch.disputes;

import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One connector's report about a dispute, in no connector's terms. {@code reportId} is the connector's unique id of
 * this report (its notification's id: a report delivered twice is applied once); {@code connectorReference} is the
 * dispute's id at the connector, the same in every report about it. {@code attempt} is the payment's attempt whose
 * charge is disputed.
 */
public record DisputeReport(String connector, String reportId, String connectorReference, String paymentId,
                            int attempt, Kind kind, long amount, String currency, @Nullable String reason,
                            @Nullable Instant evidenceDueBy, Instant occurredAt) {

    /** What the report says: opened, changed (evidence due, reason), or closed won or lost. */
    public enum Kind {
        OPENED,
        UPDATED,
        WON,
        LOST
    }

    public DisputeReport {
        Objects.requireNonNull(connector, "connector");
        Objects.requireNonNull(reportId, "reportId");
        Objects.requireNonNull(connectorReference, "connectorReference");
        Objects.requireNonNull(paymentId, "paymentId");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(currency, "currency");
        Objects.requireNonNull(occurredAt, "occurredAt");
        if (amount <= 0) {
            throw new IllegalArgumentException("a dispute's amount is positive: " + amount);
        }
    }
}
