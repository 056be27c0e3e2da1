package com.payorch.testsupport;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Base of the API tests: the whole service on a random port, over real HTTP, against the test run's real PostgreSQL.
 * Tests isolate themselves by using fresh booking ids and idempotency keys, never by cleaning tables.
 */
@Import(SandboxFaultsConfiguration.class)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "payments.merchants.demo.api-key=sk_test_demo",
        "payments.merchants.other.api-key=sk_test_other",
        "payments.merchants.inputs.api-key=sk_test_inputs",
        // The test database is external to the service but throwaway: the published development key is fine here.
        "payments.allow-development-defaults=true",
        // Tests send the gateway's webhooks themselves; the sandbox's own deliveries are tested on their own.
        "payments.gateway.sandbox.webhooks=off",
        "payments.gateway.sandbox.webhook-secret=" + ApiTest.WEBHOOK_SECRET,
        // A console user limited to merchant demo (password merchant-a-pass), next to application.yml's operator.
        "payments.console.users.demo-only.password-bcrypt=" + ApiTest.DEMO_ONLY_BCRYPT,
        "payments.console.users.demo-only.merchants=demo",
        // Graceful shutdown waits for the test clients' idle keep-alive connections (30 s at JVM exit).
        "server.shutdown=immediate"
})
public abstract class ApiTest {

    public static final String DEMO_KEY = "sk_test_demo";
    public static final String OTHER_KEY = "sk_test_other";
    public static final String DEMO_ONLY_PASSWORD = "merchant-a-pass";
    public static final String DEMO_ONLY_BCRYPT = "$2a$10$XXwYzh30fGVPiwp03I6WHeajyrozDPHFJDlydfBhgzXPq/mcoUN4e";
    public static final String WEBHOOK_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        TestDatabase.register(registry);
    }

    @LocalServerPort
    protected int port;

    @Autowired
    protected DatabaseClient db;

    protected WebTestClient client;

    protected TestQueries queries;

    @BeforeEach
    void realHttpClient() {
        client = WebTestClient.bindToServer()
                .baseUrl("http://localhost:" + port)
                .responseTimeout(Duration.ofSeconds(30))
                .build();
        queries = new TestQueries(db);
    }

    protected static String unique(String prefix) {
        return prefix + "_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
    }

    protected static String paymentBody(String bookingId) {
        return paymentBody(bookingId, "pm_card_ok");
    }

    protected static String paymentBody(String bookingId, String paymentMethod) {
        return """
                {"bookingId": "%s", "amount": 12000, "currency": "JPY", "paymentMethod": "%s",
                 "customerEmail": "guest@example.com", "description": "Room 101, 2 nights"}""".formatted(bookingId, paymentMethod);
    }

    protected WebTestClient.RequestHeadersSpec<?> postPayment(String apiKey, String idempotencyKey, String body) {
        return client.post().uri("/v1/payments")
                .header("Authorization", "Bearer " + apiKey)
                .header("Idempotency-Key", idempotencyKey)
                .header("Content-Type", "application/json")
                .bodyValue(body);
    }

    /** Creates a payment (merchant demo, a fresh idempotency key) through the API and answers its id. */
    protected String createPayment(String bookingId, String paymentMethod) {
        return createPaymentFromBody(paymentBody(bookingId, paymentMethod));
    }

    /** The same with a request body of the test's own. */
    protected String createPaymentFromBody(String body) {
        String location = postPayment(DEMO_KEY, unique("key"), body).exchange()
                .expectStatus().isCreated().expectBody().returnResult().getResponseHeaders().getLocation().toString();
        return location.substring("/v1/payments/".length());
    }

    /** Sends a webhook signed with the configured secret, as the sandbox gateway would. */
    protected WebTestClient.ResponseSpec sendWebhook(String webhookId, String body) {
        return client.post().uri("/v1/webhooks/sandbox")
                .headers(headers -> headers.addAll(SignedWebhooks.sign(WEBHOOK_SECRET, webhookId, Instant.now(), body)))
                .header("Content-Type", "application/json")
                .bodyValue(body)
                .exchange();
    }

    /** A sandbox webhook about the payment's latest charge at the sandbox (its current attempt's). */
    protected String webhookBody(String type, String paymentId, long amount, String currency) {
        return webhookBody(type, paymentId, latestChargeOf(paymentId), amount, currency);
    }

    protected static String webhookBody(String type, String paymentId, String chargeId, long amount, String currency) {
        String failure = type.equals("payment.failed") ? ", \"failureReason\": \"card_declined\"" : "";
        return ("{\"type\": \"%s\", \"data\": {\"paymentId\": \"%s\", \"chargeId\": \"%s\", \"amount\": %d,"
                + " \"currency\": \"%s\"%s}}").formatted(type, paymentId, chargeId, amount, currency, failure);
    }

    /** The id of the sandbox's charge for the payment's latest attempt ({@code ch_none} when it holds none). */
    protected String latestChargeOf(String paymentId) {
        return db.sql("select id from sandbox_charges where payment_id = $1 order by attempt desc limit 1")
                .bind(0, paymentId)
                .map(row -> row.get(0, String.class))
                .one()
                .defaultIfEmpty("ch_none")
                .block(Duration.ofSeconds(10));
    }

    /** See {@link TestQueries#count}. */
    protected long count(String sql, Object... args) {
        return queries.count(sql, args);
    }

    /** See {@link TestQueries#statusOf}. */
    protected String statusOf(String paymentId) {
        return queries.statusOf(paymentId);
    }
}
