package com.payorch.chaos.world;

import com.payorch.chaos.CampaignFacts.ReceivedDelivery;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The merchants' webhook endpoint ({@code POST /hooks/<merchant>}): records every delivery with the status it
 * answered, 204 while up, 503 while the nemesis has taken it "down" (the service must retry).
 */
public final class MerchantReceiver implements AutoCloseable {

    private final HttpServer server;
    private final ExecutorService threads = Executors.newFixedThreadPool(8, runnable -> {
        Thread thread = new Thread(runnable, "merchant-receiver");
        thread.setDaemon(true);
        return thread;
    });
    private final List<ReceivedDelivery> deliveries = new ArrayList<>();
    private volatile boolean down;

    private MerchantReceiver(HttpServer server) {
        this.server = server;
    }

    public static MerchantReceiver start(int port) {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 100);
            MerchantReceiver receiver = new MerchantReceiver(server);
            server.createContext("/hooks/", receiver::handle);
            server.setExecutor(receiver.threads);
            server.start();
            return receiver;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** The URL for {@code payments.merchants.<merchant>.webhook-url}. */
    public String urlFor(String merchant) {
        return "http://localhost:" + port() + "/hooks/" + merchant;
    }

    public void down() {
        down = true;
    }

    public void up() {
        down = false;
    }

    public boolean isDown() {
        return down;
    }

    public synchronized List<ReceivedDelivery> deliveries() {
        return List.copyOf(deliveries);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            int status = down ? 503 : 204;
            synchronized (this) {
                deliveries.add(new ReceivedDelivery(System.currentTimeMillis(), status, body));
            }
            exchange.sendResponseHeaders(status, -1);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
