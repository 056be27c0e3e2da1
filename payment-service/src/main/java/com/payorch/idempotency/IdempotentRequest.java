package com.payorch.idempotency;

/** What identifies a request for idempotency: the merchant's key, and the fingerprint of what was asked. */
public record IdempotentRequest(String merchantId, String key, String method, String path, String fingerprint) {
}
