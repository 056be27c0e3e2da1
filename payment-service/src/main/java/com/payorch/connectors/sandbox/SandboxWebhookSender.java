package com.payorch.connectors.sandbox;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.time.Clock;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.Exceptions;
import reactor.core.publisher.Mono;
import reactor.util.retry.Retry;

/**
 * Sends one webhook over HTTP, signed afresh for each attempt (so a late retry still has a current timestamp), and
 * tries again with backoff when it gets no 2xx answer or no answer at all, within `delivery.*`. Counts every attempt
 * in `payments.sandbox.webhook.deliveries`: result `delivered`, `retry` (failed, will be tried again) or `gave_up`.
 * Logs name the payment and the webhook id, never the body or the secret.
 */
@Component
class SandboxWebhookSender {

    static final String METRIC = "payments.sandbox.webhook.deliveries";
    private static final Logger log = LoggerFactory.getLogger(SandboxWebhookSender.class);

    private final WebClient http;
    private final SandboxWebhookSigner signer;
    private final Clock clock;
    private final SandboxGatewayProperties.Delivery settings;
    private final Counter delivered;
    private final Counter retried;
    private final Counter gaveUp;

    SandboxWebhookSender(WebClient.Builder http, SandboxWebhookSigner signer, Clock clock,
                         SandboxGatewayProperties properties, MeterRegistry meters) {
        this.http = http.build();
        this.signer = signer;
        this.clock = clock;
        this.settings = properties.delivery();
        this.delivered = counter(meters, "delivered");
        this.retried = counter(meters, "retry");
        this.gaveUp = counter(meters, "gave_up");
    }

    /** Emits true once the webhook got a 2xx answer, false when it was given up; never fails. */
    Mono<Boolean> send(SandboxWebhook webhook, URI target) {
        return Mono.defer(() -> attempt(webhook, target))
                .retryWhen(Retry.backoff(settings.maxAttempts() - 1L, settings.firstBackoff())
                        .maxBackoff(settings.maxBackoff())
                        .doBeforeRetry(signal -> {
                            retried.increment();
                            log.warn("Sandbox webhook {} for payment {} failed ({}); retry {} of {}", webhook.id(),
                                    webhook.paymentId(), describe(signal.failure()), signal.totalRetries() + 1,
                                    settings.maxAttempts() - 1);
                        }))
                .timeout(settings.giveUpAfter())
                .then(Mono.fromCallable(() -> {
                    delivered.increment();
                    log.info("Sandbox webhook {} for payment {} delivered", webhook.id(), webhook.paymentId());
                    return true;
                }))
                .onErrorResume(e -> {
                    gaveUp.increment();
                    String reason = Exceptions.isRetryExhausted(e)
                            ? describe(e.getCause()) + " on all " + settings.maxAttempts() + " attempts"
                            : "no delivery within " + settings.giveUpAfter();
                    log.warn("Sandbox webhook {} for payment {} given up: {}", webhook.id(), webhook.paymentId(),
                            reason);
                    return Mono.just(false);
                });
    }

    private Mono<Void> attempt(SandboxWebhook webhook, URI target) {
        return http.post().uri(target)
                .contentType(MediaType.APPLICATION_JSON)
                .headers(headers -> headers.addAll(signer.sign(webhook.id(), clock.instant(), webhook.body())))
                .bodyValue(webhook.body())
                .exchangeToMono(response -> response.releaseBody().thenReturn(response.statusCode()))
                .timeout(settings.requestTimeout())
                .flatMap(status -> status.is2xxSuccessful() ? Mono.empty() : Mono.error(new NotAccepted(status)));
    }

    private static String describe(Throwable failure) {
        if (failure instanceof NotAccepted notAccepted) {
            return "HTTP " + notAccepted.status.value();
        }
        if (failure instanceof TimeoutException) {
            return "no answer in time";
        }
        return NestedExceptionUtils.getMostSpecificCause(failure).toString();
    }

    private static Counter counter(MeterRegistry meters, String result) {
        return Counter.builder(METRIC).tag("result", result)
                .description("HTTP attempts to deliver the sandbox gateway's webhooks, by result")
                .register(meters);
    }

    private static final class NotAccepted extends RuntimeException {

        private final HttpStatusCode status;

        NotAccepted(HttpStatusCode status) {
            super(null, null, false, false);
            this.status = status;
        }
    }
}
