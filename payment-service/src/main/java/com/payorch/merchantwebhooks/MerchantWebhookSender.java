package com.payorch.merchantwebhooks;

import com.payorch.events.Event;
import com.payorch.events.EventResource;
import com.payorch.signing.WebhookHeaders;
import io.netty.channel.ChannelOption;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.http.MediaType;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;
import tools.jackson.databind.ObjectMapper;

/**
 * Sends one attempt: POST `{"type": …, "data": <the event resource>}` to the merchant's URL, signed with its secret
 * (`webhook-id` = the event id, the same for every attempt, so receivers can drop duplicates). Success is a 2xx
 * within `timeout`, which bounds connecting, waiting for the answer and the whole exchange.
 */
@Component
class MerchantWebhookSender {

    /** The outcome of one attempt: a 2xx, or the status (if any) and why it failed. */
    record Result(boolean succeeded, @Nullable Integer responseStatus, @Nullable String error) {
    }

    private final WebClient http;
    private final ObjectMapper objectMapper;
    private final Clock clock;
    private final MerchantWebhookProperties properties;

    MerchantWebhookSender(WebClient.Builder builder, ObjectMapper objectMapper, Clock clock,
                          MerchantWebhookProperties properties) {
        HttpClient client = HttpClient.create()
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) properties.timeout().toMillis())
                .responseTimeout(properties.timeout());
        this.http = builder.clone().clientConnector(new ReactorClientHttpConnector(client)).build();
        this.objectMapper = objectMapper;
        this.clock = clock;
        this.properties = properties;
    }

    /** The body of the event's webhook: the same bytes for every attempt. */
    byte[] body(Event event) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", event.type().value());
        body.put("data", EventResource.of(event, objectMapper));
        return objectMapper.writeValueAsBytes(body);
    }

    Mono<Result> send(Event event, MerchantWebhookTargets.Target target) {
        return Mono.defer(() -> {
            byte[] body = body(event);
            long timestamp = clock.instant().getEpochSecond();
            return http.post().uri(target.url())
                    .contentType(MediaType.APPLICATION_JSON)
                    .header(WebhookHeaders.ID, event.id())
                    .header(WebhookHeaders.TIMESTAMP, Long.toString(timestamp))
                    .header(WebhookHeaders.SIGNATURE, target.secret().sign(event.id(), timestamp, body))
                    .bodyValue(body)
                    .exchangeToMono(response -> response.releaseBody().thenReturn(response.statusCode().value()))
                    .timeout(properties.timeout());
        })
                .map(status -> status >= 200 && status < 300 ? new Result(true, status, null)
                        : new Result(false, status, "HTTP " + status))
                .onErrorResume(e -> Mono.just(new Result(false, null, describe(e))));
    }

    private String describe(Throwable failure) {
        Throwable cause = NestedExceptionUtils.getMostSpecificCause(failure);
        if (failure instanceof TimeoutException || cause instanceof TimeoutException
                || cause.getClass().getSimpleName().contains("Timeout")) {
            return "no answer within " + properties.timeout();
        }
        String message = cause.getMessage() == null ? "" : ": " + cause.getMessage();
        String text = cause.getClass().getSimpleName() + message;
        return text.length() > 300 ? text.substring(0, 300) : text;
    }
}
