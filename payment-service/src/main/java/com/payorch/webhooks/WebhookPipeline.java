package com.payorch.webhooks;

import com.payorch.gateway.ConnectorNotification;
import com.payorch.gateway.ConnectorWebhooks;
import com.payorch.payments.PaymentMetrics;
import java.util.List;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Webhook ingestion, the same for every connector: verify the signature on the raw bytes -> parse (the connector's
 * adapter) -> for each notification: dedup receipt, match to an attempt, apply through the write path
 * ({@link WebhookApplier}).
 */
@Component
public class WebhookPipeline {

    private final WebhookApplier applier;
    private final PaymentMetrics metrics;

    public WebhookPipeline(WebhookApplier applier, PaymentMetrics metrics) {
        this.applier = applier;
        this.metrics = metrics;
    }

    /**
     * @throws WebhookSignatureInvalid  before anything is parsed or recorded (or WebhookSignatureRejected, as the
     *                                  connector's convention asks)
     * @throws WebhookInvalid          when the verified body is malformed
     */
    public Mono<List<WebhookOutcome>> receive(ConnectorWebhooks connector, HttpHeaders headers, byte[] rawBody) {
        return Mono.defer(() -> {
            if (!connector.verify(headers, rawBody)) {
                metrics.webhook("invalid_signature");
                return Mono.error(switch (connector.signatureFailure()) {
                    case UNAUTHORIZED -> new WebhookSignatureInvalid();
                    case BAD_REQUEST -> new WebhookSignatureRejected();
                });
            }
            List<ConnectorNotification> notifications;
            try {
                notifications = connector.parse(headers, rawBody);
            } catch (WebhookInvalid invalid) {
                metrics.webhook("invalid");
                return Mono.error(invalid);
            }
            return Flux.fromIterable(notifications)
                    .concatMap(notification -> applier.apply(connector.connector(), connector.merchantId(), notification))
                    .collectList();
        });
    }
}
