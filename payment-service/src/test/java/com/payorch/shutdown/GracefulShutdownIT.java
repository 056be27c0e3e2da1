package com.payorch.shutdown;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.payorch.fakes.FakeStripe;
import com.payorch.testsupport.SchemaQueries;
import com.payorch.testsupport.ServiceInstances;
import com.payorch.testsupport.ServiceJvm;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;

/**
 * SIGTERM to a service JVM under load: requests in flight (held 8 s by a slow Stripe) and requests that arrive while
 * readiness is already down all get their normal 201; readiness answers 503 during the drain; the merchant webhook
 * attempts the instance had claimed (their receiver hangs) are released at once, so that another instance delivers
 * them within seconds although their lease is 10 minutes; and the stop logs no force-closing, no error and no stack
 * trace.
 */
class GracefulShutdownIT {

    private static final String SCHEMA = "graceful_shutdown_tests";
    private static final String STRIPE_KEY = "sk_test_51FakeShutdownSecretKeyDoNotLog0007";
    private static final String STRIPE_WEBHOOK_SECRET = "whsec_FakeShutdownEndpointSecretDoNotLog7";
    private static final String MERCHANT_WEBHOOK_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final int STRIPE_DELAY_MILLIS = 8000;

    private final FakeStripe stripe = new FakeStripe(0).acceptKey(STRIPE_KEY).delayEveryAnswer(STRIPE_DELAY_MILLIS);
    private final WireMockServer merchant = new WireMockServer(options().dynamicPort());
    private final SchemaQueries queries = new SchemaQueries(SCHEMA);
    private ServiceJvm service;
    private ServiceInstances successor;

    @AfterEach
    void stopAll() {
        if (service != null) {
            service.close();
        }
        if (successor != null) {
            successor.close();
        }
        stripe.close();
        merchant.stop();
    }

    @Test
    void sigtermUnderLoadFinishesRequestsReleasesClaimsAndStopsQuietly() throws Exception {
        merchant.start();
        // The merchant's receiver hangs: the instance's claimed webhook attempts stay in flight until it stops.
        merchant.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(200).withFixedDelay(120_000)));
        List<String> settings = List.of(
                "--server.shutdown=graceful",
                "--spring.lifecycle.timeout-per-shutdown-phase=20s",
                "--payments.shutdown.readiness-drain=PT4S",
                "--payments.gateway.timeout=PT30S",
                "--payments.connectors.stripe.read-timeout=PT30S",
                "--payments.merchants.demo.webhook-url=http://localhost:" + merchant.port() + "/hook",
                "--payments.merchants.demo.webhook-secret=" + MERCHANT_WEBHOOK_SECRET,
                "--payments.merchant-webhooks.timeout=PT5M",
                "--payments.merchant-webhooks.lease=PT10M",
                "--payments.merchants.slow.api-key=sk_test_slow",
                "--payments.merchants.slow.routing=stripe",
                "--payments.merchants.slow.connectors.stripe.secret-key=" + STRIPE_KEY,
                "--payments.merchants.slow.connectors.stripe.webhook-secret=" + STRIPE_WEBHOOK_SECRET,
                "--payments.connectors.stripe.api-base=" + stripe.baseUrl());
        // Kept in target/ for a look after a failure.
        service = ServiceJvm.start(Path.of("target", "graceful-shutdown-service.log"), SCHEMA, settings);
        WebClient client = WebClient.builder().baseUrl(service.baseUrl()).build();
        String run = UUID.randomUUID().toString().substring(0, 8);

        for (int i = 0; i < 3; i++) {
            assertThat(create(client, "sk_test_demo", "bk_gs_demo_" + run + "_" + i, "pm_card_ok")
                    .get(30, TimeUnit.SECONDS).status()).isEqualTo(201);
        }
        // The dispatcher's run now waits for the receiver, holding its claim (one or more attempts).
        await().atMost(Duration.ofSeconds(30)).until(() -> liveClaims("webhook_deliveries") >= 1);

        List<CompletableFuture<Reply>> inFlight = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            inFlight.add(create(client, "sk_test_slow", "bk_gs_slow_" + run + "_" + i, "pm_card_processing"));
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> queries.count(
                "select count(*) from payments where booking_id like ?", "bk_gs_slow_" + run + "_%") == 6);

        long sigterm = System.nanoTime();
        service.terminate();
        // Well inside the drain, so that the requests below still find the server accepting.
        await().atMost(Duration.ofSeconds(3)).pollInterval(Duration.ofMillis(50))
                .until(() -> service.readinessStatus() == 503);
        long readinessDownMillis = (System.nanoTime() - sigterm) / 1_000_000;
        // A load balancer that has not noticed yet still sends requests: they are served too.
        List<CompletableFuture<Reply>> duringDrain = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            duringDrain.add(create(client, "sk_test_slow", "bk_gs_late_" + run + "_" + i, "pm_card_processing"));
        }

        int exit = service.awaitExit(Duration.ofSeconds(60));
        long stopMillis = (System.nanoTime() - sigterm) / 1_000_000;
        String output = service.output();
        System.out.printf("readiness down %d ms after SIGTERM, process gone after %d ms%n", readinessDownMillis,
                stopMillis);

        Instant gracefulShutdownBegan = loggedAt(output, "Commencing graceful shutdown");
        List<CompletableFuture<Reply>> all = new ArrayList<>(inFlight);
        all.addAll(duringDrain);
        for (CompletableFuture<Reply> request : all) {
            Reply reply = request.get(1, TimeUnit.SECONDS);
            assertThat(reply.status()).as(output).isEqualTo(201);
        }
        // Still in flight when the web server stopped accepting: graceful shutdown waited for them.
        assertThat(duringDrain).allSatisfy(request -> assertThat(request.get().at()).isAfter(gracefulShutdownBegan));
        // Released, not left to their 10-minute lease.
        assertThat(liveClaims("webhook_deliveries")).isZero();
        assertThat(liveClaims("events")).isZero();
        assertThat(liveClaims("work_claims")).isZero();
        assertThat(queries.count("select count(*) from webhook_deliveries where status = 'pending'")).isPositive();
        assertThat(exit).as(output).isEqualTo(143); // 128 + SIGTERM: the JVM's normal answer to a TERM signal
        String stop = output.substring(output.indexOf("Commencing graceful shutdown") >= 0
                ? output.lastIndexOf("Started PaymentServiceApplication") : 0);
        assertThat(stop).contains("Released", "claimed merchant webhook attempts for other instances",
                "Commencing graceful shutdown", "Graceful shutdown complete");
        assertThat(output.toLowerCase()).doesNotContain("force-clos", "forcibly", "aborted");
        assertThat(output).doesNotContain("ERROR", "Exception", "\tat ");


        merchant.resetAll();
        merchant.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(200)));
        successor = ServiceInstances.start(1, SCHEMA, settings.stream()
                .filter(setting -> !setting.startsWith("--server.shutdown")
                        && !setting.startsWith("--payments.shutdown")).toList());
        long takeover = System.nanoTime();
        await().atMost(Duration.ofSeconds(30)).until(() -> queries.count(
                "select count(*) from webhook_deliveries where status = 'pending'") == 0);
        System.out.printf("another instance delivered the released attempts %d ms after it was started%n",
                (System.nanoTime() - takeover) / 1_000_000);
        assertThat(queries.count("select count(*) from webhook_deliveries where status = 'succeeded'"))
                .isGreaterThanOrEqualTo(3);
    }

    private record Reply(int status, Instant at) {
    }

    /** When the (only) log line containing `text` was written, from its ISO timestamp. */
    private static Instant loggedAt(String output, String text) {
        String line = output.lines().filter(l -> l.contains(text)).findFirst()
                .orElseThrow(() -> new AssertionError("no log line with " + text + " in:\n" + output));
        return OffsetDateTime.parse(line.substring(0, line.indexOf(' '))).toInstant();
    }

    private long liveClaims(String table) {
        return queries.count("select count(*) from " + table + " where claimed_until > now()");
    }

    private static CompletableFuture<Reply> create(WebClient client, String apiKey, String booking, String method) {
        String body = """
                {"bookingId": "%s", "amount": 5000, "currency": "USD", "paymentMethod": "%s"}"""
                .formatted(booking, method);
        return client.post().uri("/v1/payments")
                .header("Authorization", "Bearer " + apiKey)
                .header("Idempotency-Key", UUID.randomUUID().toString())
                .header("Content-Type", "application/json")
                .bodyValue(body)
                .exchangeToMono(response -> response.releaseBody()
                        .then(Mono.fromSupplier(
                                () -> new Reply(response.statusCode().value(), Instant.now()))))
                .toFuture();
    }
}
