package com.payorch.webhooks.api;

import com.payorch.web.Detached;
import com.payorch.web.RequestBodies;
import com.payorch.webhooks.SandboxWebhooks;
import com.payorch.webhooks.WebhookPipeline;
import java.util.Map;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/** The sandbox gateway's webhooks: authenticated by their Standard Webhooks signature, not by an API key. */
@RestController
public class SandboxWebhookController {

    private final WebhookPipeline pipeline;
    private final SandboxWebhooks sandbox;

    public SandboxWebhookController(WebhookPipeline pipeline, SandboxWebhooks sandbox) {
        this.pipeline = pipeline;
        this.sandbox = sandbox;
    }

    @PostMapping("/v1/webhooks/sandbox")
    public Mono<Map<String, String>> receive(ServerWebExchange exchange) {
        return RequestBodies.read(exchange)
                .flatMap(raw -> Detached.run(pipeline.receive(sandbox, exchange.getRequest().getHeaders(), raw)))
                .map(outcomes -> Map.of("status", outcomes.get(0).value()));
    }
}
