package com.payorch.webhooks;

import com.payorch.gateway.WebhookSignatureFailures;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Signature failures of single notifications inside an accepted request: logged and counted
 * ({@code payments_webhook_signature_failures_total{connector}}), never applied.
 */
@Component
public class RecordedSignatureFailures implements WebhookSignatureFailures {

    private static final Logger log = LoggerFactory.getLogger(RecordedSignatureFailures.class);

    private final MeterRegistry registry;

    public RecordedSignatureFailures(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void record(String connector, @Nullable String merchantId, String detail) {
        log.warn("Webhook signature failure: connector={} merchant={} {}", connector, merchantId, detail);
        registry.counter("payments.webhook.signature.failures", "connector", connector).increment();
    }
}
