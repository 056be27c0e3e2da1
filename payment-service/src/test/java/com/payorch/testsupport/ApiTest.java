package com.payorch.testsupport;

import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Base of the API tests: the whole service on a random port, over real HTTP, against the test run's real PostgreSQL.
 * Tests isolate themselves by using fresh booking ids and idempotency keys, never by cleaning tables.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "payments.merchants.demo.api-key=sk_test_demo",
        "payments.merchants.other.api-key=sk_test_other",
        "payments.merchants.inputs.api-key=sk_test_inputs",
        // The test database is external to the service but throwaway: the published development key is fine here.
        "payments.allow-development-defaults=true",
        // Tests send the gateway's webhooks themselves; the sandbox's own deliveries are tested on their own.
        "payments.gateway.sandbox.webhooks=off",
        "payments.gateway.sandbox.webhook-secret=" + ApiTest.WEBHOOK_SECRET,
        // Graceful shutdown waits for the test clients' idle keep-alive connections (30 s at JVM exit).
        "server.shutdown=immediate"
})
public abstract class ApiTest {

    public static final String DEMO_KEY = "sk_test_demo";
    public static final String OTHER_KEY = "sk_test_other";
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

    @BeforeEach
    void realHttpClient() {
        client = WebTestClient.bindToServer()
                .baseUrl("http://localhost:" + port)
                .responseTimeout(Duration.ofSeconds(30))
                .build();
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

    /** Creates a payment through the API and answers its id. */
    protected String createPayment(String bookingId, String paymentMethod) {
        String location = postPayment(DEMO_KEY, unique("key"), paymentBody(bookingId, paymentMethod)).exchange()
                .expectStatus().isCreated().expectBody().returnResult().getResponseHeaders().getLocation().toString();
        return location.substring("/v1/payments/".length());
    }

    /** Sends a webhook signed with the configured secret, as the sandbox gateway would. */
    protected WebTestClient.ResponseSpec sendWebhook(String webhookId, String body) {
        return client.post().uri("/v1/webhooks/sandbox")
                .headers(headers -> headers.addAll(SignedWebhooks.sign(WEBHOOK_SECRET, webhookId,
                        java.time.Instant.now(), body)))
                .header("Content-Type", "application/json")
                .bodyValue(body)
                .exchange();
    }

    protected static String webhookBody(String type, String paymentId, long amount, String currency) {
        String failure = type.equals("payment.failed") ? ", \"failureReason\": \"card_declined\"" : "";
        return "{\"type\": \"%s\", \"data\": {\"paymentId\": \"%s\", \"amount\": %d, \"currency\": \"%s\"%s}}"
                .formatted(type, paymentId, amount, currency, failure);
    }

    protected long count(String sql, Object... args) {
        DatabaseClient.GenericExecuteSpec spec = db.sql(sql);
        for (int i = 0; i < args.length; i++) {
            spec = spec.bind(i, args[i]);
        }
        return spec.map(row -> row.get(0, Long.class)).one().block(Duration.ofSeconds(10));
    }
}
