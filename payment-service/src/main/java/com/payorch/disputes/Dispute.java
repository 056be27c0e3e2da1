package com.payorch.disputes;

import com.payorch.statemachine.DisputeStatus;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * A dispute as the API shows it (contract v3, the dispute resource): `connector` and `connectorReference` name it at
 * the connector that reported it; `version` grows by one with every change of its status.
 */
public record Dispute(String id, String paymentId, long amount, String currency, DisputeStatus status,
                      @Nullable String reason, String connector, String connectorReference,
                      @Nullable Instant evidenceDueBy, long version, Instant createdAt, Instant updatedAt) {
}
