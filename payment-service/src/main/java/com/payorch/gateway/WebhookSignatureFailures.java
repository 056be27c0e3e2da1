package com.payorch.gateway;

import org.jspecify.annotations.Nullable;

/**
 * Where a connector reports a notification whose signature failed inside an otherwise accepted request (Adyen signs
 * each item of a batch): it is not applied, and the webhooks module logs it, counts it
 * ({@code payments_webhook_signature_failures_total{connector}}) and keeps it for the console.
 */
public interface WebhookSignatureFailures {

    void record(String connector, @Nullable String merchantId, String detail);
}
