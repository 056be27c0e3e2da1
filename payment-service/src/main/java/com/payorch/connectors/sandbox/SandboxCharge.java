package com.payorch.connectors.sandbox;

import com.payorch.gateway.GatewayOutcome;
import com.payorch.gateway.GatewayStatus;
import io.r2dbc.spi.Readable;

/**
 * A charge as the sandbox holds it, one per payment attempt; {@code status} is the sandbox's own word
 * (`processing`, `succeeded`, `failed`; for a manual-capture charge also `authorized`, `capturing`, `capture_failed`,
 * `cancelled`; for a 3-D Secure charge also `requires_action` while it waits for its customer, and `cancelled`), as {@code GET /v1/sandbox/charges} shows it. {@code captures} counts the captures requested;
 * {@code amountCaptured} is what a capture took.
 */
public record SandboxCharge(String id, String paymentId, int attempt, long amount, String currency, String status,
                            String failureReason, String captureMethod, int captures, Long amountCaptured) {

    /** The columns {@link #of} reads (a line of their own, so SQL may follow). */
    static final String COLUMNS = """
            id, payment_id, attempt, amount, currency, status, failure_reason, capture_method, captures,
            amount_captured
            """;

    static SandboxCharge of(Readable row) {
        return new SandboxCharge(row.get("id", String.class), row.get("payment_id", String.class),
                row.get("attempt", Integer.class), row.get("amount", Long.class), row.get("currency", String.class),
                row.get("status", String.class), row.get("failure_reason", String.class),
                row.get("capture_method", String.class), row.get("captures", Integer.class),
                row.get("amount_captured", Long.class));
    }

    static final String REQUIRES_ACTION = "requires_action";

    /** Waits for its customer on the sandbox's 3-D Secure page ({@link SandboxCustomerAction}). */
    public boolean waitingForCustomer() {
        return REQUIRES_ACTION.equals(status);
    }

    boolean manual() {
        return "manual".equals(captureMethod);
    }

    /** The sandbox's word translated into the gateway port's (a charge waiting for its customer: the gateway's). */
    GatewayOutcome outcome() {
        GatewayStatus portStatus = switch (status) {
            case "processing" -> GatewayStatus.PROCESSING;
            // A capture in flight still holds the money: the hold is what the sandbox can vouch for.
            case "authorized", "capturing" -> GatewayStatus.AUTHORIZED;
            case "capture_failed" -> GatewayStatus.CAPTURE_FAILED;
            case "succeeded" -> GatewayStatus.SUCCEEDED;
            case "failed" -> GatewayStatus.FAILED;
            case "cancelled" -> GatewayStatus.CANCELLED;
            default -> throw new IllegalStateException("unknown sandbox charge status " + status);
        };
        return new GatewayOutcome(paymentId, attempt, SandboxGateway.NAME, id, portStatus,
                portStatus == GatewayStatus.FAILED || portStatus == GatewayStatus.CAPTURE_FAILED ? failureReason
                        : null);
    }
}
