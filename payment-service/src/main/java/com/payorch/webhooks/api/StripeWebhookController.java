package com.payorch.webhooks.api;

import com.payorch.web.Detached;
import com.payorch.web.RequestBodies;
import com.payorch.webhooks.StripeWebhooks;
import com.payorch.webhooks.WebhookPipeline;
import java.util.Map;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/** Stripe's webhooks, one endpoint per merchant: authenticated by the `Stripe-Signature` header, not an API key. */
@RestController
public class StripeWebhookController {

    private final WebhookPipeline pipeline;
    private final StripeWebhooks stripe;

    public StripeWebhookController(WebhookPipeline pipeline, StripeWebhooks stripe) {
        this.pipeline = pipeline;
        this.stripe = stripe;
    }

    @PostMapping("/v1/webhooks/stripe/{merchantId}")
    public Mono<Map<String, String>> receive(@PathVariable String merchantId, ServerWebExchange exchange) {
        return Mono.fromCallable(() -> stripe.forMerchant(merchantId))
                .flatMap(adapter -> RequestBodies.read(exchange).flatMap(raw -> Detached.run(
                        pipeline.receive(adapter, exchange.getRequest().getHeaders(), raw))))
                .map(outcomes -> Map.of("status", outcomes.isEmpty() ? "ignored" : outcomes.get(0).value()));
    }
}
