package com.payorch.connectors.sandbox;

import com.payorch.gateway.GatewayOutcome;
import com.payorch.gateway.GatewayStatus;

/**
 * A charge as the sandbox holds it, one per payment attempt; {@code status} is the sandbox's own word
 * (`processing`, `succeeded`, `failed`), as {@code GET /v1/sandbox/charges} shows it.
 */
public record SandboxCharge(String id, String paymentId, int attempt, long amount, String currency, String status,
                            String failureReason) {

    /** The sandbox's word translated into the gateway port's. */
    GatewayOutcome outcome() {
        GatewayStatus portStatus = switch (status) {
            case "processing" -> GatewayStatus.PROCESSING;
            case "succeeded" -> GatewayStatus.SUCCEEDED;
            case "failed" -> GatewayStatus.FAILED;
            default -> throw new IllegalStateException("unknown sandbox charge status " + status);
        };
        return new GatewayOutcome(paymentId, attempt, SandboxGateway.NAME, id, portStatus,
                portStatus == GatewayStatus.FAILED ? failureReason : null);
    }
}
