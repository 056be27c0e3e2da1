package com.payorch.webhooks.api;

import com.payorch.connectors.braintree.BraintreeWebhooks;
import com.payorch.web.Detached;
import com.payorch.web.RequestBodies;
import com.payorch.webhooks.WebhookPipeline;
import java.util.Map;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/** Braintree's webhooks, one endpoint per merchant: authenticated by `bt_signature`, not an API key; answered 200. */
@RestController
public class BraintreeWebhookController {

    private final WebhookPipeline pipeline;
    private final BraintreeWebhooks braintree;

    public BraintreeWebhookController(WebhookPipeline pipeline, BraintreeWebhooks braintree) {
        this.pipeline = pipeline;
        this.braintree = braintree;
    }

    @PostMapping("/v1/webhooks/braintree/{merchantId}")
    public Mono<Map<String, String>> receive(@PathVariable String merchantId, ServerWebExchange exchange) {
        return Mono.fromCallable(() -> braintree.forMerchant(merchantId))
                .flatMap(adapter -> RequestBodies.read(exchange).flatMap(raw -> Detached.run(
                        pipeline.receive(adapter, exchange.getRequest().getHeaders(), raw))))
                .map(outcomes -> Map.of("status", outcomes.isEmpty() ? "ignored" : outcomes.get(0).value()));
    }
}
