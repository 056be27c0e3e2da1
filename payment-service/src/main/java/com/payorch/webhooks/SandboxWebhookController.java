package com.payorch.webhooks;

import com.payorch.payments.PaymentMetrics;
import com.payorch.web.ApiProblem;
import com.payorch.web.Detached;
import com.payorch.web.ProblemCode;
import com.payorch.web.RequestBodies;
import com.payorch.web.StrictJson;
import java.util.Map;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/** The sandbox gateway's webhooks: authenticated by their Standard Webhooks signature, not by an API key. */
@RestController
public class SandboxWebhookController {

    private final WebhookSignatureVerifier verifier;
    private final StrictJson json;
    private final WebhookApplier applier;
    private final PaymentMetrics metrics;

    public SandboxWebhookController(WebhookSignatureVerifier verifier, StrictJson json, WebhookApplier applier,
                                    PaymentMetrics metrics) {
        this.verifier = verifier;
        this.json = json;
        this.applier = applier;
        this.metrics = metrics;
    }

    @PostMapping("/v1/webhooks/sandbox")
    public Mono<Map<String, String>> receive(ServerWebExchange exchange) {
        return RequestBodies.read(exchange).flatMap(raw -> {
            // The signature is checked on the raw bytes, before anything is parsed; the answer says nothing of why.
            if (!verifier.isValid(exchange.getRequest().getHeaders(), raw)) {
                metrics.webhook("invalid_signature");
                return Mono.error(new ApiProblem(ProblemCode.WEBHOOK_SIGNATURE_INVALID,
                        "The webhook signature could not be verified."));
            }
            GatewayWebhook webhook;
            try {
                webhook = GatewayWebhook.from(json.parse(raw));
            } catch (ApiProblem problem) {
                metrics.webhook("invalid");
                throw problem.problemCode() == ProblemCode.WEBHOOK_INVALID ? problem
                        : new ApiProblem(ProblemCode.WEBHOOK_INVALID, problem.detail());
            }
            String webhookId = exchange.getRequest().getHeaders().getFirst("webhook-id");
            return Detached.run(applier.apply("sandbox", webhookId, webhook));
        }).map(outcome -> Map.of("status", outcome.value()));
    }
}
