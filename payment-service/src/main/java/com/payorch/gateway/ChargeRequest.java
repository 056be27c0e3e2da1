package com.payorch.gateway;

/** What the gateway is asked to charge; `paymentId` doubles as the gateway-side idempotency key. */
public record ChargeRequest(String paymentId, long amount, String currency, String paymentMethod) {
}
