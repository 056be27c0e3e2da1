package com.payorch.connectors.sandbox;

/**
 * A refund as the sandbox holds it, one per refund id; {@code status} is the sandbox's own word (`pending`,
 * `succeeded`, `failed`).
 */
record SandboxRefund(String id, String refundId, String chargeId, String paymentId, long amount, String currency,
                     String status, String failureReason) {
}
