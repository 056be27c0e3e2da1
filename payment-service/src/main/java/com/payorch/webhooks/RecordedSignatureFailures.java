package com.payorch.webhooks;

import com.payorch.gateway.WebhookSignatureFailures;
import com.payorch.support.Text;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.r2dbc.core.Parameter;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Webhook signature failures: a whole request whose signature did not verify, or a single notification inside an
 * accepted request (Adyen signs each item). Each is logged, counted
 * ({@code payments_webhook_signature_failures_total{connector}}) and kept in {@code webhook_signature_failures} for
 * the console's "needs attention"; never applied. Keeping it is one insert, and its failure never fails the request
 * that carried the bad signature: it is logged instead.
 */
@Component
public class RecordedSignatureFailures implements WebhookSignatureFailures {

    private static final Logger log = LoggerFactory.getLogger(RecordedSignatureFailures.class);

    /** Details are written by this service, but may quote what a sender sent: bounded, printable. */
    private static final int MAX_DETAIL = 500;

    private final MeterRegistry registry;
    private final DatabaseClient db;

    public RecordedSignatureFailures(MeterRegistry registry, DatabaseClient db) {
        this.registry = registry;
        this.db = db;
    }

    /** From a connector's adapter, which cannot wait: the row is written in the background. */
    @Override
    public void record(String connector, @Nullable String merchantId, String detail) {
        recorded(connector, merchantId, detail).subscribe();
    }

    /** Logs, counts and keeps the failure; completes once it is kept (or its keeping failed and was logged). */
    public Mono<Void> recorded(String connector, @Nullable String merchantId, String detail) {
        String bounded = Text.printable(detail.length() > MAX_DETAIL ? detail.substring(0, MAX_DETAIL) : detail);
        log.warn("Webhook signature failure: connector={} merchant={} {}", connector, merchantId, bounded);
        registry.counter("payments.webhook.signature.failures", "connector", connector).increment();
        return db.sql("insert into webhook_signature_failures (connector, merchant_id, detail) values"
                        + " (:connector, :merchant, :detail)")
                .bind("connector", connector)
                .bind("merchant", Parameter.fromOrEmpty(merchantId, String.class))
                .bind("detail", bounded)
                .then()
                .onErrorResume(error -> {
                    log.error("Could not keep a webhook signature failure of connector {} for the console: {}",
                            connector, error.toString());
                    return Mono.empty();
                });
    }
}
