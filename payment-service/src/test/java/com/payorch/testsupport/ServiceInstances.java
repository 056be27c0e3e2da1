package com.payorch.testsupport;

import com.payorch.PaymentServiceApplication;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * Several service instances in one test, sharing the test database as separately deployed instances would share
 * one PostgreSQL: each on a random port, on a schema of the test's own (so the jobs of other cached test contexts
 * never touch its rows), configured by command-line arguments (which win over application.yml, as they would for a
 * deployed instance).
 */
public final class ServiceInstances implements AutoCloseable {

    private final List<ConfigurableApplicationContext> contexts = new ArrayList<>();
    private final List<WebClient> clients = new ArrayList<>();

    private ServiceInstances() {
    }

    /**
     * @param schema    the test's own schema
     * @param arguments the test's own settings, as {@code --key=value}
     */
    public static ServiceInstances start(int count, String schema, List<String> arguments) {
        return start(count, TestDatabase.get(), schema, arguments);
    }

    /** As {@link #start(int, String, List)}, on another database than the shared test database. */
    public static ServiceInstances start(int count, TestDatabase database, String schema, List<String> arguments) {
        ServiceInstances instances = new ServiceInstances();
        for (int i = 0; i < count; i++) {
            List<String> all = commandLine(database, schema, arguments);
            ConfigurableApplicationContext context = new SpringApplicationBuilder(PaymentServiceApplication.class)
                    .run(all.toArray(String[]::new));
            instances.contexts.add(context);
            int port = ((WebServerApplicationContext) context).getWebServer().getPort();
            instances.clients.add(WebClient.builder().baseUrl("http://localhost:" + port).build());
        }
        return instances;
    }

    /**
     * The command line of an instance on the test database in {@code schema} (random port unless {@code arguments}
     * set {@code --server.port}): also used by {@link ServiceJvm} for an instance in a JVM of its own.
     */
    public static List<String> commandLine(String schema, List<String> arguments) {
        return commandLine(TestDatabase.get(), schema, arguments);
    }

    /** The command line of an instance on {@code database} (its URLs and credentials) in {@code schema}. */
    public static List<String> commandLine(TestDatabase database, String schema, List<String> arguments) {
        List<String> all = new ArrayList<>(List.of("--server.port=0",
                "--server.shutdown=immediate",
                "--spring.r2dbc.url=" + database.r2dbcUrl(),
                "--spring.r2dbc.username=" + database.username(),
                "--spring.r2dbc.password=" + database.password(),
                "--spring.flyway.url=" + database.jdbcUrl(),
                "--spring.flyway.user=" + database.username(),
                "--spring.flyway.password=" + database.password(),
                "--payments.db.embedded=false",
                // A throwaway external database: the shipped development key (sk_test_demo) is fine.
                "--payments.allow-development-defaults=true",
                "--payments.gateway.sandbox.webhooks=off"));
        all.addAll(OwnSchema.Settings.commandLine(schema));
        all.addAll(arguments);
        return all;
    }

    /** The i-th instance's HTTP client (i modulo the number of instances). */
    public WebClient client(int i) {
        return clients.get(i % clients.size());
    }

    /**
     * The same {@code POST /v1/payments} (one API key, one Idempotency-Key, one body) sent {@code times} times at once,
     * spread over the instances: the HTTP statuses, in no particular order.
     */
    public List<Integer> postPaymentConcurrently(String apiKey, String idempotencyKey, String body, int times) {
        return Flux.range(0, times)
                .flatMap(i -> client(i).post().uri("/v1/payments")
                        .header("Authorization", "Bearer " + apiKey)
                        .header("Idempotency-Key", idempotencyKey)
                        .header("Content-Type", "application/json")
                        .bodyValue(body)
                        .exchangeToMono(r -> r.releaseBody().thenReturn(r.statusCode().value())), times)
                .collectList()
                .block(Duration.ofSeconds(60));
    }

    /** {@code POST /v1/payments} of {@code body} to the i-th instance under a fresh key: the created payment's id. */
    public String createPayment(int i, String apiKey, String body) {
        String created = client(i).post().uri("/v1/payments")
                .header("Authorization", "Bearer " + apiKey)
                .header("Idempotency-Key", "key_" + UUID.randomUUID())
                .header("Content-Type", "application/json")
                .bodyValue(body)
                .retrieve().bodyToMono(String.class).block(Duration.ofSeconds(60));
        return new JsonMapper().readTree(created).path("id").asString();
    }

    /** A sandbox webhook signed with {@code secret}, sent to the i-th instance when subscribed: its HTTP status. */
    public Mono<Integer> sandboxWebhook(int i, String secret, String webhookId, String body) {
        return client(i).post().uri("/v1/webhooks/sandbox")
                .headers(headers -> headers.addAll(SignedWebhooks.sign(secret, webhookId, Instant.now(), body)))
                .header("Content-Type", "application/json")
                .bodyValue(body)
                .exchangeToMono(response -> response.releaseBody().thenReturn(response.statusCode().value()));
    }

    public ConfigurableApplicationContext context(int i) {
        return contexts.get(i);
    }

    public TestQueries queries() {
        return TestQueries.of(contexts.get(0));
    }

    @Override
    public void close() {
        contexts.forEach(ConfigurableApplicationContext::close);
    }
}
