package com.payorch.webhooks.api;

import com.payorch.gateway.Connector;
import com.payorch.web.Detached;
import com.payorch.web.RequestBodies;
import com.payorch.webhooks.WebhookEndpoints;
import com.payorch.webhooks.WebhookOutcome;
import com.payorch.webhooks.WebhookPipeline;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Every connector's webhooks, authenticated by the connector's own signature, not by an API key:
 * `POST /v1/webhooks/{connector}/{merchantId}` (Stripe, Adyen, ...: one endpoint per merchant account) and
 * `POST /v1/webhooks/{connector}` (the sandbox). The connector's adapter verifies and parses; the answer is the one
 * the connector expects ({@link Connector#acknowledgement()}).
 */
@RestController
public class ConnectorWebhookController {

    private final WebhookPipeline pipeline;
    private final WebhookEndpoints endpoints;

    public ConnectorWebhookController(WebhookPipeline pipeline, WebhookEndpoints endpoints) {
        this.pipeline = pipeline;
        this.endpoints = endpoints;
    }

    @PostMapping({"/v1/webhooks/{connector}", "/v1/webhooks/{connector}/{merchantId}"})
    public Mono<ResponseEntity<?>> receive(@PathVariable String connector,
                                           @PathVariable(required = false) @Nullable String merchantId,
                                           ServerWebExchange exchange) {
        return Mono.fromCallable(() -> endpoints.connector(connector, merchantId))
                .flatMap(plugged -> Mono.fromCallable(() -> plugged.webhooksFor(merchantId))
                        .flatMap(adapter -> RequestBodies.read(exchange).flatMap(raw -> Detached.run(
                                pipeline.receive(adapter, plugged.acknowledgement(),
                                        exchange.getRequest().getHeaders(), raw))))
                        .map(outcomes -> acknowledge(plugged, outcomes)));
    }

    private static ResponseEntity<?> acknowledge(Connector connector, List<WebhookOutcome> outcomes) {
        return switch (connector.acknowledgement()) {
            case ACCEPTED_TEXT -> ResponseEntity.ok().contentType(MediaType.TEXT_PLAIN).body("[accepted]");
            case STATUS_JSON -> ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON)
                    .body(Map.of("status", outcomes.isEmpty() ? "ignored" : outcomes.get(0).value()));
        };
    }
}
