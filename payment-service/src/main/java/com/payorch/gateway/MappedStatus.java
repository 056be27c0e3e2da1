package com.payorch.gateway;

import org.jspecify.annotations.Nullable;

/** A connector's own status (of a charge or a refund) in the port's words, with its reason when FAILED. */
public record MappedStatus(GatewayStatus status, @Nullable String failureReason) {
}
