package com.payorch.merchantwebhooks;

import com.standardwebhooks.Webhook;
import com.standardwebhooks.exceptions.WebhookVerificationException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A merchant's webhook endpoint on a loopback port: verifies every request's signature with the standardwebhooks
 * library (as a merchant would), records it, and answers 200 unless told otherwise for a booking id (the event's
 * `data.bookingId`). It can be stopped and started again on the same port.
 */
final class MerchantWebhookReceiver {

    record Received(String webhookId, String type, String bookingId, JsonNode body, boolean signatureValid,
                    int answered) {
    }

    enum Behaviour { FAIL_ONCE, FAIL_ALWAYS, SLOW_ONCE }

    private static final JsonMapper JSON = new JsonMapper();

    private final Webhook verifier;
    private final Duration slowFor;
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final Map<String, Behaviour> behaviours = new ConcurrentHashMap<>();
    private volatile int port;
    private volatile DisposableServer server;

    MerchantWebhookReceiver(String secret, Duration slowFor) {
        this.verifier = new Webhook(secret);
        this.slowFor = slowFor;
        start();
    }

    synchronized void start() {
        server = HttpServer.create().host("127.0.0.1").port(port).handle(this::receive).bindNow();
        port = server.port();
    }

    synchronized void stop() {
        server.disposeNow();
    }

    String url() {
        return "http://127.0.0.1:" + port + "/hooks";
    }

    void behave(String bookingId, Behaviour behaviour) {
        behaviours.put(bookingId, behaviour);
    }

    List<Received> receivedFor(String bookingId) {
        return received.stream().filter(r -> bookingId.equals(r.bookingId())).toList();
    }

    List<Received> all() {
        return new ArrayList<>(received);
    }

    private Mono<Void> receive(HttpServerRequest request, HttpServerResponse response) {
        return request.receive().aggregate().asByteArray().defaultIfEmpty(new byte[0]).flatMap(bytes -> {
            String body = new String(bytes, StandardCharsets.UTF_8);
            Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            request.requestHeaders().forEach(h -> headers.computeIfAbsent(h.getKey(), k -> new ArrayList<>())
                    .add(h.getValue()));
            boolean valid;
            try {
                verifier.verify(body, headers);
                valid = true;
            } catch (WebhookVerificationException e) {
                valid = false;
            }
            JsonNode json = JSON.readTree(body);
            String bookingId = json.path("data").path("bookingId").asText();
            Behaviour behaviour = behaviours.get(bookingId);
            boolean slow = behaviour == Behaviour.SLOW_ONCE && behaviours.remove(bookingId, Behaviour.SLOW_ONCE);
            int status = behaviour == Behaviour.FAIL_ALWAYS
                    || (behaviour == Behaviour.FAIL_ONCE && behaviours.remove(bookingId, Behaviour.FAIL_ONCE))
                    || !valid ? 500 : 200;
            received.add(new Received(headers.get("webhook-id").get(0), json.path("type").asText(), bookingId, json,
                    valid, slow ? -1 : status));
            Mono<Void> answer = response.status(status).sendString(Mono.just("ok")).then();
            return slow ? Mono.delay(slowFor).then(answer) : answer;
        });
    }
}
