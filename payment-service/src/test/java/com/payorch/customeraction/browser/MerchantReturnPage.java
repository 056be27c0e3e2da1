package com.payorch.customeraction.browser;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The merchant's page the customer's browser is sent back to after the authentication: a real HTTP server on a random
 * port of its own (another origin than the service), serving {@code /return}. It records the query of every visit
 * and shows the payment id it was given, as a merchant's shop would before asking its server about the payment.
 */
final class MerchantReturnPage implements AutoCloseable {

    private final HttpServer server;
    private final List<Map<String, String>> visits = new CopyOnWriteArrayList<>();
    private volatile Consumer<Map<String, String>> merchantServer = visit -> { };

    private MerchantReturnPage(HttpServer server) {
        this.server = server;
    }

    static MerchantReturnPage start() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        MerchantReturnPage page = new MerchantReturnPage(server);
        server.createContext("/return", page::answer);
        server.start();
        return page;
    }

    /** The page's address for a returnUrl (localhost: the only http the service accepts). */
    String url(String query) {
        return base() + "/return?" + query;
    }

    /** Where the page lives: a browser on it is back at the merchant. */
    String base() {
        return "http://localhost:" + server.getAddress().getPort();
    }

    /** The query parameters of every visit, oldest first. */
    List<Map<String, String>> visits() {
        return new ArrayList<>(visits);
    }

    /** The visits that brought this payment back. */
    List<Map<String, String>> visitsOf(String paymentId) {
        return visits.stream().filter(visit -> paymentId.equals(visit.get("payment_id"))).toList();
    }

    /** What the merchant's server does with a visit before it answers the page (until replaced: nothing). */
    void onVisit(Consumer<Map<String, String>> action) {
        merchantServer = action;
    }

    private void answer(HttpExchange exchange) throws IOException {
        Map<String, String> query = parse(exchange.getRequestURI());
        visits.add(query);
        try {
            merchantServer.accept(query);
        } catch (RuntimeException | AssertionError failed) {
            exchange.sendResponseHeaders(500, -1);
            exchange.close();
            throw failed;
        }
        String paymentId = query.getOrDefault("payment_id", "");
        byte[] html = """
                <!doctype html>
                <html lang="en"><head><meta charset="utf-8"><title>Order %s</title></head>
                <body><h1>Thank you</h1>
                <p>Order <span id="order">%s</span>, payment <span id="payment-id">%s</span>.</p></body></html>
                """.formatted(escape(query.getOrDefault("order", "")), escape(query.getOrDefault("order", "")),
                escape(paymentId)).getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "text/html; charset=utf-8");
        exchange.getResponseHeaders().add("Cache-Control", "no-store");
        exchange.sendResponseHeaders(200, html.length);
        try (OutputStream body = exchange.getResponseBody()) {
            body.write(html);
        }
    }

    private static Map<String, String> parse(URI uri) {
        Map<String, String> query = new LinkedHashMap<>();
        String raw = uri.getRawQuery();
        if (raw == null || raw.isEmpty()) {
            return query;
        }
        for (String pair : raw.split("&")) {
            int equals = pair.indexOf('=');
            String name = equals < 0 ? pair : pair.substring(0, equals);
            String value = equals < 0 ? "" : pair.substring(equals + 1);
            query.put(URLDecoder.decode(name, StandardCharsets.UTF_8), URLDecoder.decode(value, StandardCharsets.UTF_8));
        }
        return query;
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
