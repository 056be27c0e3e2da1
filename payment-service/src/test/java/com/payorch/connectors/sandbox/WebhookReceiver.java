package com.payorch.connectors.sandbox;

import com.payorch.signing.WebhookSignatureVerifier;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.http.HttpHeaders;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A stand-in for the service's webhook endpoint on a random loopback port: records every request, checks its
 * signature with {@link WebhookSignatureVerifier}, and answers 200 unless told to fail for payments of an amount.
 */
final class WebhookReceiver {

    record Received(String webhookId, String type, String paymentId, String body, String contentType,
                    boolean signatureValid, int answeredStatus) {
    }

    private static final JsonMapper JSON = new JsonMapper();

    private final WebhookSignatureVerifier verifier;
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final Set<Long> failOnce = ConcurrentHashMap.newKeySet();
    private final Set<Long> failAlways = ConcurrentHashMap.newKeySet();
    private final DisposableServer server;

    WebhookReceiver(String secret) {
        this.verifier = new WebhookSignatureVerifier(secret, Clock.systemUTC());
        this.server = HttpServer.create().host("127.0.0.1").port(0).handle(this::receive).bindNow();
    }

    URI url() {
        return URI.create("http://127.0.0.1:" + server.port() + "/v1/webhooks/sandbox");
    }

    List<Received> receivedFor(String paymentId) {
        return received.stream().filter(r -> paymentId.equals(r.paymentId())).toList();
    }

    List<Received> all() {
        return List.copyOf(received);
    }

    /**
     * The first request about a payment of this amount gets a 500. Armed by amount, before the payment is made: once
     * its id is known, its first webhook may already be on its way.
     */
    void failOnceForPaymentsOf(long amount) {
        failOnce.add(amount);
    }

    /** Every request about a payment of this amount gets a 500 (armed before the payment is made, as above). */
    void failAlwaysForPaymentsOf(long amount) {
        failAlways.add(amount);
    }

    private Mono<Void> receive(HttpServerRequest request, HttpServerResponse response) {
        return request.receive().aggregate().asByteArray().defaultIfEmpty(new byte[0]).flatMap(body -> {
            HttpHeaders headers = new HttpHeaders();
            for (Map.Entry<String, String> header : request.requestHeaders()) {
                headers.add(header.getKey(), header.getValue());
            }
            JsonNode json = parse(body);
            String paymentId = json.path("data").path("paymentId").asText();
            long amount = json.path("data").path("amount").asLong();
            int status = failAlways.contains(amount) || failOnce.remove(amount) ? 500 : 200;
            received.add(new Received(headers.getFirst("webhook-id"), json.path("type").asText(), paymentId,
                    new String(body, StandardCharsets.UTF_8), headers.getFirst(HttpHeaders.CONTENT_TYPE),
                    verifier.isValid(headers, body), status));
            return response.status(status).send().then();
        });
    }

    private static JsonNode parse(byte[] body) {
        return JSON.readTree(body);
    }
}
