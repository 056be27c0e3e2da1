package com.payorch.gateway;

/** A charge as the gateway reports it; `status` is the gateway's own word (`processing`, `succeeded`, `failed`). */
public record GatewayCharge(String id, String paymentId, int attempt, long amount, String currency, String status,
                            String failureReason) {
}
