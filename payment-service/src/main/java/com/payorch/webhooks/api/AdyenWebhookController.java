package com.payorch.webhooks.api;

import com.payorch.web.Detached;
import com.payorch.web.RequestBodies;
import com.payorch.webhooks.AdyenWebhooks;
import com.payorch.webhooks.WebhookPipeline;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Adyen's notifications, one endpoint per merchant: each item authenticated by its HMAC signature, not an API key.
 * The answer Adyen expects is the body `[accepted]`, whatever became of each item.
 */
@RestController
public class AdyenWebhookController {

    private final WebhookPipeline pipeline;
    private final AdyenWebhooks adyen;

    public AdyenWebhookController(WebhookPipeline pipeline, AdyenWebhooks adyen) {
        this.pipeline = pipeline;
        this.adyen = adyen;
    }

    @PostMapping("/v1/webhooks/adyen/{merchantId}")
    public Mono<ResponseEntity<String>> receive(@PathVariable String merchantId, ServerWebExchange exchange) {
        return Mono.fromCallable(() -> adyen.forMerchant(merchantId))
                .flatMap(adapter -> RequestBodies.read(exchange).flatMap(raw -> Detached.run(
                        pipeline.receive(adapter, exchange.getRequest().getHeaders(), raw))))
                .map(outcomes -> ResponseEntity.ok().contentType(MediaType.TEXT_PLAIN).body("[accepted]"));
    }
}
