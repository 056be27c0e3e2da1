package com.payorch.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.connectors.sandbox.SandboxGateway;
import com.payorch.connectors.sandbox.SandboxGatewayProperties;
import com.payorch.connectors.sandbox.SandboxOwnAddress;
import com.payorch.gateway.ChargeRequest;
import com.payorch.gateway.GatewayOutcome;
import com.payorch.gateway.GatewayUnavailableException;
import com.payorch.testsupport.SignedWebhooks;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.util.FileSystemUtils;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * The whole database goes away and comes back: this test runs its own embedded PostgreSQL, stops it (as a crash,
 * an upgrade or a failover does) and starts it again on the same data directory and port, without touching the
 * database the other tests share. While it is down every request answers 503 `service_unavailable` with
 * `Retry-After`, never 500, including one that was half way through (its next step could not open a transaction:
 * Spring's `CannotCreateTransactionException`); after the restart everything works again and nothing acknowledged
 * is lost.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "payments.merchants.demo.api-key=sk_test_restart",
        // application.yml's development console user, with a password of this test's own (external database)
        "payments.console.users.operator.password-bcrypt=" + com.payorch.testsupport.ApiTest.DEMO_ONLY_BCRYPT,
        "spring.main.allow-bean-definition-overriding=true",
        // The sandbox route on an external (throwaway) database: a development default, accepted knowingly.
        "payments.allow-development-defaults=true",
        "payments.gateway.sandbox.webhooks=off",
        "payments.gateway.sandbox.webhook-secret=" + DatabaseRestartIT.WEBHOOK_SECRET,
        // A key whose release failed during the outage is taken over soon after the restart.
        "payments.idempotency.lock-timeout=PT2S",
        "server.shutdown=immediate"
})
@DirtiesContext
class DatabaseRestartIT {

    static final String WEBHOOK_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final String API_KEY = "sk_test_restart";
    /** A payment method whose submit waits for {@link #gate}, then finds the gateway unreachable. */
    private static final String GATED_METHOD = "pm_card_gated";

    private static final Path DATA_DIR = createDataDir();
    private static EmbeddedPostgres postgres = start(0);
    private static final int DB_PORT = postgres.getPort();
    private static volatile Sinks.Empty<Void> gate = Sinks.empty();

    @LocalServerPort
    int port;

    @TestConfiguration
    static class GatedGateway {
        /** Replaces the sandbox connector (same bean name; overriding is allowed for this test only). */
        @Bean
        SandboxGateway sandboxGateway(DatabaseClient db, Clock clock,
                                      SandboxGatewayProperties properties, SandboxOwnAddress address) {
            return new SandboxGateway(db, clock, properties, address) {
                @Override
                public Mono<GatewayOutcome> submit(ChargeRequest request) {
                    return GATED_METHOD.equals(request.paymentMethod())
                            ? gate.asMono().then(Mono.error(new GatewayUnavailableException("gated")))
                            : super.submit(request);
                }
            };
        }
    }

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        registry.add("spring.r2dbc.url", () -> "r2dbc:postgresql://localhost:" + DB_PORT + "/postgres");
        registry.add("spring.r2dbc.username", () -> "postgres");
        registry.add("spring.r2dbc.password", () -> "");
        registry.add("spring.flyway.url", () -> "jdbc:postgresql://localhost:" + DB_PORT + "/postgres");
        registry.add("spring.flyway.user", () -> "postgres");
        registry.add("spring.flyway.password", () -> "");
        registry.add("payments.db.embedded", () -> "false");
    }

    @AfterAll
    static void stopDatabase() throws IOException {
        postgres.close();
        FileSystemUtils.deleteRecursively(DATA_DIR);
    }

    record Answer(int status, String retryAfter, String body) {
    }

    @Test
    void whileTheDatabaseIsDownEveryRequestIs503AndAfterItsRestartAllWorksAgain() throws Exception {
        String booking = unique("bk");
        String paymentId = location(send(HttpMethod.POST, "/v1/payments", unique("key"), body(booking, "pm_card_ok")));

        // A create half way: its payment is committed, its submit waits at the gateway.
        String halfKey = unique("key");
        String halfBody = body(unique("bk"), GATED_METHOD);
        CompletableFuture<Answer> half = sendAsync(HttpMethod.POST, "/v1/payments", halfKey, halfBody);
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> recoveryPoint(halfKey).equals("PAYMENT_CREATED"));

        postgres.close();

        // Its next step needs a transaction, which cannot be opened now.
        gate.tryEmitEmpty();
        List<Answer> duringOutage = new ArrayList<>();
        duringOutage.add(half.get());
        String outageKey = unique("key");
        String outageBody = body(unique("bk"), "pm_card_ok");
        duringOutage.add(send(HttpMethod.POST, "/v1/payments", outageKey, outageBody));
        duringOutage.add(send(HttpMethod.POST, "/v1/payments", halfKey, halfBody));
        duringOutage.add(send(HttpMethod.GET, "/v1/payments/" + paymentId, null, null));
        duringOutage.add(send(HttpMethod.GET, "/v1/payments?bookingId=" + booking, null, null));
        duringOutage.add(send(HttpMethod.GET, "/v1/bookings/" + booking, null, null));
        duringOutage.add(send(HttpMethod.GET, "/v1/events?paymentId=" + paymentId, null, null));
        duringOutage.add(send(HttpMethod.POST, "/v1/payments/" + paymentId + "/retry", unique("key"), null));
        duringOutage.add(webhook(paymentId));
        assertThat(duringOutage).allSatisfy(answer -> {
            assertThat(answer.status()).as(answer.body()).isEqualTo(503);
            assertThat(answer.retryAfter()).isEqualTo("1");
            assertThat(answer.body()).contains("\"code\":\"service_unavailable\"").doesNotContain("Exception");
        });

        postgres = start(DB_PORT);

        // Until the pool has replaced its dead connections a request may still meet the outage: 503, never 500.
        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> {
            Answer answer = send(HttpMethod.GET, "/v1/payments/" + paymentId, null, null);
            assertThat(answer.status()).as(answer.body()).isIn(200, 503);
            return answer.status() == 200;
        });
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> {
            Answer answer = send(HttpMethod.POST, "/v1/payments", outageKey, outageBody);
            assertThat(answer.status()).as(answer.body()).isIn(201, 503);
            return answer.status() == 201;
        });
        // The half-way create resumes from its committed payment (the gateway is still unreachable: PENDING).
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> {
            Answer answer = send(HttpMethod.POST, "/v1/payments", halfKey, halfBody);
            assertThat(answer.status()).as(answer.body()).isIn(201, 409, 503);
            return answer.status() == 201 && answer.body().contains("\"status\":\"PENDING\"");
        });
        assertThat(count("select count(*) from payments where payment_method = '" + GATED_METHOD + "'")).isEqualTo(1);
        assertThat(count("select count(*) from payments where id = '" + paymentId + "'")).isEqualTo(1);
    }

    private Answer send(HttpMethod method, String path, String idempotencyKey, String body) throws Exception {
        return sendAsync(method, path, idempotencyKey, body).get();
    }

    private CompletableFuture<Answer> sendAsync(HttpMethod method, String path, String idempotencyKey, String body) {
        WebClient.RequestBodySpec request = WebClient.builder().baseUrl("http://localhost:" + port).build()
                .method(method).uri(path)
                .header("Authorization", "Bearer " + API_KEY);
        if (idempotencyKey != null) {
            request.header("Idempotency-Key", idempotencyKey);
        }
        if (body != null) {
            request.header("Content-Type", "application/json").bodyValue(body);
        }
        return exchange(request);
    }

    private Answer webhook(String paymentId) throws Exception {
        String body = "{\"type\": \"payment.succeeded\", \"data\": {\"paymentId\": \"" + paymentId
                + "\", \"chargeId\": \"ch_during_outage\", \"amount\": 12000, \"currency\": \"JPY\"}}";
        WebClient.RequestBodySpec request = WebClient.builder().baseUrl("http://localhost:" + port).build()
                .method(HttpMethod.POST).uri("/v1/webhooks/sandbox")
                .headers(h -> h.addAll(SignedWebhooks.sign(WEBHOOK_SECRET, unique("msg"), Instant.now(), body)));
        request.header("Content-Type", "application/json").bodyValue(body);
        return exchange(request).get();
    }

    private static CompletableFuture<Answer> exchange(WebClient.RequestHeadersSpec<?> request) {
        return request.exchangeToMono(response -> response.bodyToMono(String.class).defaultIfEmpty("")
                        .map(text -> new Answer(response.statusCode().value(),
                                response.headers().asHttpHeaders().getFirst(HttpHeaders.RETRY_AFTER), text)))
                .toFuture();
    }

    private static String location(Answer created) {
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        int at = created.body().indexOf("\"id\":\"") + 6;
        return created.body().substring(at, created.body().indexOf('"', at));
    }

    private static String body(String booking, String paymentMethod) {
        return "{\"bookingId\": \"" + booking + "\", \"amount\": 12000, \"currency\": \"JPY\", \"paymentMethod\": \""
                + paymentMethod + "\"}";
    }

    private static String unique(String prefix) {
        return prefix + "_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
    }

    private static String recoveryPoint(String key) throws SQLException {
        try (Connection connection = postgres.getPostgresDatabase().getConnection();
             PreparedStatement statement = connection.prepareStatement(
                     "select recovery_point from idempotency_keys where idempotency_key = ?")) {
            statement.setString(1, key);
            try (ResultSet rows = statement.executeQuery()) {
                return rows.next() ? rows.getString(1) : "";
            }
        }
    }

    private static long count(String sql) throws SQLException {
        try (Connection connection = postgres.getPostgresDatabase().getConnection();
             PreparedStatement statement = connection.prepareStatement(sql);
             ResultSet rows = statement.executeQuery()) {
            rows.next();
            return rows.getLong(1);
        }
    }

    private static Path createDataDir() {
        try {
            return Files.createTempDirectory("payments-restart-test-postgres");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** zonky's PostgreSQL on this test's data directory; port 0 picks a free one, the restart reuses it. */
    private static EmbeddedPostgres start(int port) {
        try {
            EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                    .setDataDirectory(DATA_DIR)
                    .setCleanDataDirectory(false);
            if (port > 0) {
                builder.setPort(port);
            }
            return builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start this test's PostgreSQL", e);
        }
    }
}
