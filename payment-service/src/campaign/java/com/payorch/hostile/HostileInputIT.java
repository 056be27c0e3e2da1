package com.payorch.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.fakes.FakeAdyen;
import com.payorch.fakes.FakeStripe;
import com.payorch.hostile.HostileRequest.Category;
import com.payorch.testsupport.ApiTest;
import com.payorch.testsupport.OwnSchema;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Bad input at volume (issue 14): a seeded generator ({@link HostileRequests}) sends {@code -Dhostile.requests}
 * (default 10,000) hostile requests from a few concurrent raw-socket clients to the whole service, with merchants on
 * the sandbox, Stripe and Adyen, and holds every answer to the contract: no 5xx, no connection closed without an
 * answer, every error an {@code application/problem+json} with a code the docs define, no hostile request accepted
 * (replays of applied webhooks answer "duplicate"), no row added, removed or left behind in any table of the schema,
 * and no payment, dispute or sandbox charge changed. Contract v3 is aimed at through an AUTHORIZED hold, a payment
 * waiting on the sandbox's 3-D Secure page and an OPEN dispute ({@link V3Targets}). Prints the counts per category
 * and per status.
 *
 * <p>Long run: {@code ./mvnw -B -o -pl payment-service -am verify -Dit.test=HostileInputIT -Dtest=NoUnitTest
 * -Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false -Dhostile.requests=100000}
 * (optionally {@code -Dhostile.seed=…};
 * {@code -Dhostile.clients=…}, default 4).
 */
@OwnSchema("hostile_tests")
@TestPropertySource(properties = {
        "payments.merchants.hostile.api-key=" + HostileInputIT.KEY,
        "payments.merchants.hstripe.api-key=sk_test_hstripe",
        "payments.merchants.hstripe.routing=stripe",
        "payments.merchants.hstripe.connectors.stripe.secret-key=" + HostileInputIT.STRIPE_KEY,
        "payments.merchants.hstripe.connectors.stripe.webhook-secret=" + HostileInputIT.STRIPE_WEBHOOK_SECRET,
        "payments.merchants.hadyen.api-key=sk_test_hadyen",
        "payments.merchants.hadyen.routing=adyen",
        "payments.merchants.hadyen.connectors.adyen.api-key=" + HostileInputIT.ADYEN_KEY,
        "payments.merchants.hadyen.connectors.adyen.merchant-account=" + HostileInputIT.ADYEN_ACCOUNT,
        "payments.merchants.hadyen.connectors.adyen.hmac-key=" + HostileInputIT.ADYEN_HMAC,
        // nothing settles by itself during the run: the setup's payments are settled by their webhooks
        "payments.recovery.processing-after=PT1H",
        "payments.recovery.pending-after=PT1H"})
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class HostileInputIT extends ApiTest {

    static final String KEY = "sk_test_hostile";
    static final String STRIPE_KEY = "sk_test_51HostileStripeKeyDoNotLog000007";
    static final String STRIPE_WEBHOOK_SECRET = "whsec_HostileEndpointSecretDoNotLog07";
    static final String ADYEN_KEY = "AQE_HostileAdyenApiKeyDoNotLog_0007";
    static final String ADYEN_ACCOUNT = "PayorchHostileECOM";
    static final String ADYEN_HMAC = "44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056";

    private static final long SEED = Long.getLong("hostile.seed", 20261201L);
    private static final int REQUESTS = Integer.getInteger("hostile.requests", 10_000);
    private static final int CLIENTS = Integer.getInteger("hostile.clients", 4);
    private static final int FAILURES_SHOWN = 40;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static final FakeStripe STRIPE = new FakeStripe(0).acceptKey(STRIPE_KEY);
    private static final FakeAdyen ADYEN = new FakeAdyen().acceptKey(ADYEN_KEY);

    @DynamicPropertySource
    static void connectors(DynamicPropertyRegistry registry) {
        registry.add("payments.connectors.stripe.api-base", STRIPE::baseUrl);
        registry.add("payments.connectors.adyen.checkout-url", ADYEN::checkoutUrl);
    }

    @AfterAll
    static void stopFakes() {
        STRIPE.close();
        ADYEN.close();
    }

    @Test
    void theDocumentedCodesAreTheOnesThisTestKnows() throws Exception {
        assertThat(ProblemCodes.documented()).containsExactlyInAnyOrderElementsOf(ProblemCodes.KNOWN);
    }

    @Test
    void hostileRequestsAtVolumeGetProblemAnswersAndLeaveNoRow() throws Exception {
        HostileRequests.Targets targets = setUp();
        Map<String, String> before = awaitQuietSchema();

        Results results = new Results();
        long started = System.nanoTime();
        HostileRequests generator = new HostileRequests(SEED, targets);
        AtomicLong next = new AtomicLong();
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        List<Future<?>> running = new ArrayList<>();
        for (int c = 0; c < CLIENTS; c++) {
            running.add(clients.submit(() -> {
                try (RawHttp http = new RawHttp("localhost", port, Duration.ofSeconds(15))) {
                    for (long i = next.getAndIncrement(); i < REQUESTS; i = next.getAndIncrement()) {
                        HostileRequest request = generator.generate(i);
                        RawHttp.Response response = http.exchange(request.toBytes(), request.isHead(),
                                request.closeAfter);
                        results.record(request, response);
                        if ((i + 1) % 10_000 == 0) {
                            System.out.printf("hostile: %d requests sent, %d s, %d defects so far%n", i + 1,
                                    Duration.ofNanos(System.nanoTime() - started).toSeconds(),
                                    results.failureCount.sum());
                        }
                    }
                }
                return null;
            }));
        }
        for (Future<?> client : running) {
            client.get(30, TimeUnit.MINUTES);
        }
        clients.shutdown();
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        System.out.println(results.report(took));
        assertThat(results.failures).as("defects (request, answer); reproduce with -Dhostile.seed=" + SEED).isEmpty();
        assertThat(results.total.sum()).isEqualTo(REQUESTS);
        // Nothing a refused request did may remain, now or a little later (background work it might have queued).
        Awaitility.await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> assertThat(schema()).as(this::rowsOfHostileRequests).isEqualTo(before));
        assertThat(count("select count(*) from webhook_signature_failures"))
                .as("forged webhooks are kept for the console (contract v3, ingestion)").isPositive();
    }

    /** The payments, webhooks and keys the generator aims at, each in its final state. */
    private HostileRequests.Targets setUp() {
        String paidBooking = unique("bk_hostile");
        String storedKey = unique("hostile_stored");
        String storedBody = """
                {"bookingId": "%s", "amount": 12000, "currency": "JPY", "paymentMethod": "pm_card_ok"}"""
                .formatted(paidBooking);
        String location = postPayment(KEY, storedKey, storedBody).exchange().expectStatus().isCreated()
                .expectBody().returnResult().getResponseHeaders().getLocation().toString();
        String completed = location.substring("/v1/payments/".length());
        String sandboxWebhookId = unique("msg_hostile_applied");
        String sandboxBody = webhookBody("payment.succeeded", completed, 12000, "JPY");
        sendWebhook(sandboxWebhookId, sandboxBody).expectStatus().isOk().expectBody()
                .jsonPath("$.status").isEqualTo("applied");
        assertThat(statusOf(completed)).isEqualTo("COMPLETED");

        String foreign = createPayment(unique("bk_foreign"), "pm_card_ok");

        // Stripe: a processing PaymentIntent, settled by one signed event (the one replayed later)
        JsonNode stripePayment = created("sk_test_hstripe", """
                {"bookingId": "%s", "amount": 5000, "currency": "USD", "paymentMethod": "pm_card_processing"}"""
                .formatted(unique("bk_hstripe")));
        String intent = stripePayment.get("connectorReference").textValue();
        String event = FakeStripe.event(unique("evt_hostile"), "payment_intent.succeeded",
                STRIPE.settle(intent, "succeeded"), FakeStripe.API_VERSION);
        client.post().uri("/v1/webhooks/stripe/hstripe")
                .header("Stripe-Signature", FakeStripe.sign(event, STRIPE_WEBHOOK_SECRET,
                        java.time.Instant.now().getEpochSecond()))
                .header("Content-Type", "application/json").bodyValue(event).exchange()
                .expectStatus().isOk().expectBody().jsonPath("$.status").isEqualTo("applied");
        assertThat(statusOf(stripePayment.get("id").textValue())).isEqualTo("COMPLETED");

        // Adyen: a Received payment, settled by one HMAC-signed notification batch (the one replayed later)
        JsonNode adyenPayment = created("sk_test_hadyen", """
                {"bookingId": "%s", "amount": 1000, "currency": "EUR", "paymentMethod": "%s"}"""
                .formatted(unique("bk_hadyen"), unique("pm_card_processing")));
        String adyenId = adyenPayment.get("id").textValue();
        String batch = FakeAdyen.notification(ADYEN_ACCOUNT, ADYEN_HMAC, List.of(Map.of(
                "pspReference", adyenPayment.get("connectorReference").textValue(), "merchantReference", adyenId,
                "success", true, "value", 1000L, "currency", "EUR", "reason", "")));
        client.post().uri("/v1/webhooks/adyen/hadyen").header("Content-Type", "application/json").bodyValue(batch)
                .exchange().expectStatus().isOk().expectBody(String.class).isEqualTo("[accepted]");
        assertThat(statusOf(adyenId)).isEqualTo("COMPLETED");

        return new HostileRequests.Targets(KEY, List.of(DEMO_KEY, OTHER_KEY, "sk_test_hstripe", "sk_test_hadyen"),
                paidBooking, completed, 12000, foreign, storedKey, storedBody, WEBHOOK_SECRET, sandboxWebhookId,
                sandboxBody, "hstripe", STRIPE_WEBHOOK_SECRET, event, "hadyen", ADYEN_ACCOUNT, ADYEN_HMAC, batch,
                setUpV3(completed, foreign));
    }

    /**
     * Contract v3's targets: an AUTHORIZED hold, a payment waiting for its customer on the sandbox's page, an OPEN
     * dispute of the completed payment (opened by a sandbox webhook, replayed later) and one of another merchant's.
     */
    private V3Targets setUpV3(String completed, String foreign) {
        String hold = created(KEY, """
                {"bookingId": "%s", "amount": 12000, "currency": "JPY", "paymentMethod": "pm_card_ok",
                 "captureMethod": "manual"}""".formatted(unique("bk_hold"))).get("id").textValue();
        // the sandbox authorises the hold; its webhook is the test's to send (ApiTest: sandbox webhooks off)
        sendWebhook(unique("msg_hostile_hold"), webhookBody("payment.authorized", hold, 12000, "JPY"))
                .expectStatus().isOk().expectBody().jsonPath("$.status").isEqualTo("applied");
        assertThat(statusOf(hold)).isEqualTo("AUTHORIZED");

        JsonNode awaiting = created(KEY, """
                {"bookingId": "%s", "amount": 12000, "currency": "JPY", "paymentMethod": "pm_card_3ds",
                 "returnUrl": "https://shop.example.com/return?order=7"}""".formatted(unique("bk_3ds")));
        assertThat(awaiting.get("status").textValue()).isEqualTo("REQUIRES_ACTION");
        String awaitingId = awaiting.get("id").textValue();

        String settledCharge = latestChargeOf(completed);
        String disputeWebhookId = unique("msg_hostile_dispute");
        String disputeBody = DisputeRequests.report("dispute.opened", completed, settledCharge, unique("sbdp"),
                "5000", "JPY", ", \"reason\": \"fraudulent\", \"evidenceDueBy\": \"2026-12-31T23:59:59Z\"");
        sendWebhook(disputeWebhookId, disputeBody).expectStatus().isOk().expectBody()
                .jsonPath("$.status").isEqualTo("applied");

        sendWebhook(unique("msg_foreign"), webhookBody("payment.succeeded", foreign, 12000, "JPY"))
                .expectStatus().isOk();
        sendWebhook(unique("msg_foreign_dispute"), DisputeRequests.report("dispute.opened", foreign,
                latestChargeOf(foreign), unique("sbdp"), "1000", "JPY", "")).expectStatus().isOk().expectBody()
                .jsonPath("$.status").isEqualTo("applied");

        return new V3Targets(hold, 12000, version(hold), awaitingId, version(awaitingId), version(completed),
                latestChargeOf(awaitingId), settledCharge, onlyDisputeOf(KEY, completed),
                onlyDisputeOf(DEMO_KEY, foreign), disputeWebhookId, disputeBody);
    }

    private long version(String paymentId) {
        return count("select version from payments where id = $1", paymentId);
    }

    private String onlyDisputeOf(String apiKey, String paymentId) {
        JsonNode disputes = JSON.readTree(client.get().uri("/v1/payments/" + paymentId + "/disputes")
                .header("Authorization", "Bearer " + apiKey).exchange().expectStatus().isOk().expectBody()
                .returnResult().getResponseBody()).path("data");
        assertThat(disputes.size()).isEqualTo(1);
        return disputes.get(0).path("id").textValue();
    }

    /**
     * A payment created through the API. On a saturated machine the fake PSP may answer after the connector's
     * time-out (502 `gateway_error`): the same request with the same key resumes it, as the contract says.
     */
    private JsonNode created(String apiKey, String body) {
        String key = unique("key");
        AtomicReference<String> answer = new AtomicReference<>();
        Awaitility.await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofSeconds(1)).until(() -> {
            var result = postPayment(apiKey, key, body).exchange().expectBody(String.class).returnResult();
            assertThat(result.getStatus().value()).isIn(201, 502, 503);
            answer.set(result.getResponseBody());
            return result.getStatus().value() == 201;
        });
        return JSON.readTree(answer.get());
    }

    /**
     * The schema once the setup's background work (outbox, deliveries, the sandbox settling its charges) is done:
     * no sandbox charge still processing, and the same twice, a second apart.
     */
    private Map<String, String> awaitQuietSchema() {
        AtomicReference<Map<String, String>> last = new AtomicReference<>(Map.of());
        Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1)).until(() -> {
            Map<String, String> now = schema();
            return count("select count(*) from sandbox_charges where status = 'processing'") == 0
                    && now.equals(last.getAndSet(now));
        });
        return last.get();
    }

    /**
     * What no refused request may change: the row count of every table, and the state of each payment, dispute and
     * sandbox charge (a capture, cancel, complete or page decision could change one without adding a row).
     */
    private Map<String, String> schema() {
        Map<String, String> schema = new TreeMap<>();
        rowCounts().forEach((table, rows) -> schema.put("rows " + table, Long.toString(rows)));
        schema.putAll(states("payment", "select id, status || ' v' || version || ' captured ' || amount_captured"
                + " || ' capturing ' || coalesce(capture_amount::text, '-') || ' disputed ' || amount_disputed"
                + " || ' cancel ' || coalesce(cancel_requested_at::text, '-') from payments"));
        schema.putAll(states("dispute", "select id, status || ' v' || version || ' ' || amount from disputes"));
        schema.putAll(states("sandbox charge", "select id, status from sandbox_charges"));
        return schema;
    }

    private Map<String, String> states(String kind, String sql) {
        Map<String, String> states = new TreeMap<>();
        db.sql(sql).map(row -> Map.entry(kind + " " + row.get(0, String.class), row.get(1, String.class))).all()
                .collectList().block(Duration.ofSeconds(30))
                .forEach(entry -> states.put(entry.getKey(), entry.getValue()));
        return states;
    }

    /** For a failure message: what the generator's requests left (their idempotency keys name them). */
    private String rowsOfHostileRequests() {
        return "rows left by hostile requests (idempotency key, path, stored status): " + db.sql(
                        "select idempotency_key || ' ' || request_path || ' ' || coalesce(response_status::text, '-')"
                                + " || ' ' || coalesce(convert_from(response_body, 'UTF8'), '') from idempotency_keys"
                                + " where idempotency_key like 'hostile-%' order by 1")
                .map(row -> row.get(0, String.class)).all().collectList().block(Duration.ofSeconds(30))
                + "; sandbox page tokens used (charge, time): " + db.sql(
                        "select charge_id || ' ' || used_at from sandbox_page_tokens order by used_at limit 20")
                .map(row -> row.get(0, String.class)).all().collectList().block(Duration.ofSeconds(30));
    }

    /** Every table of the schema and its number of rows. */
    private Map<String, Long> rowCounts() {
        List<String> tables = db.sql("select table_name from information_schema.tables"
                        + " where table_schema = current_schema() and table_type = 'BASE TABLE' order by 1")
                .map(row -> row.get(0, String.class)).all().collectList().block(Duration.ofSeconds(30));
        assertThat(tables).contains("payments", "idempotency_keys", "webhook_receipts", "events", "refunds",
                "disputes", "dispute_reports", "sandbox_charges", "sandbox_page_tokens");
        Map<String, Long> counts = new TreeMap<>();
        for (String table : tables) {
            counts.put(table, count(switch (table) {
                // Contract v3 keeps two audit records of refused webhooks, which are no state: a signed notification
                // about an object this service does not have is recorded as ignored (payment_id null), and every
                // signature failure is kept for the console. Rows bound to a payment still count.
                case "webhook_receipts" -> "select count(*) from webhook_receipts where payment_id is not null";
                case "webhook_signature_failures" -> "select 0";
                default -> "select count(*) from \"" + table + "\"";
            }));
        }
        return counts;
    }

    /** Counts and defects, filled by the clients concurrently. */
    private static final class Results {

        final LongAdder total = new LongAdder();
        final ConcurrentMap<Category, ConcurrentMap<String, LongAdder>> byCategory = new ConcurrentHashMap<>();
        final ConcurrentMap<String, LongAdder> byStatus = new ConcurrentHashMap<>();
        final ConcurrentMap<String, LongAdder> byCode = new ConcurrentHashMap<>();
        /** Defects by kind (what, category, status): how many, and the first example of each. */
        final ConcurrentMap<String, LongAdder> defectCounts = new ConcurrentHashMap<>();
        final ConcurrentMap<String, String> defectExamples = new ConcurrentHashMap<>();
        final List<String> failures = Collections.synchronizedList(new ArrayList<>());
        final LongAdder failureCount = new LongAdder();

        void record(HostileRequest request, RawHttp.Response response) {
            total.increment();
            String status = response.status() < 0 ? "closed" : Integer.toString(response.status());
            byStatus.computeIfAbsent(status, k -> new LongAdder()).increment();
            byCategory.computeIfAbsent(request.category, k -> new ConcurrentHashMap<>())
                    .computeIfAbsent(status, k -> new LongAdder()).increment();
            String defect = defect(request, response);
            if (defect != null) {
                failureCount.increment();
                String kind = defect + " | " + request.category + " | " + status;
                defectCounts.computeIfAbsent(kind, k -> new LongAdder()).increment();
                defectExamples.computeIfAbsent(kind, k -> "request: " + request.describe() + "\n      answer: "
                        + status + " " + response.header("content-type") + " " + abbreviate(response.bodyText())
                        + (response.failure() == null ? "" : " (" + response.failure() + ")"));
                if (failures.size() < FAILURES_SHOWN) {
                    failures.add(kind + ": " + request.describe());
                }
            }
        }

        /** What is wrong with this answer to this request, or null. */
        private String defect(HostileRequest request, RawHttp.Response response) {
            int status = response.status();
            if (status < 0) {
                return "no answer";
            }
            if (status >= 500) {
                return "5xx";
            }
            if (status >= 400) {
                String type = response.header("content-type");
                if (request.isConsole()) {
                    // The console is HTML for a browser, outside the API's problem rule: its CSRF refusal is
                    // Spring Security's 403 "Access Denied" (docs/reliability.md, known gaps)
                    return null;
                }
                if (request.isSandboxPage() && type != null && type.startsWith("text/html")) {
                    // the sandbox's 3-D Secure page answers the customer's browser in HTML (docs/api.md)
                    return null;
                }
                if (type == null || !type.startsWith("application/problem+json")) {
                    return "error without application/problem+json";
                }
                if (request.isHead()) {
                    return null;
                }
                JsonNode problem;
                try {
                    problem = JSON.readTree(response.body());
                } catch (RuntimeException e) {
                    return "problem body is not JSON";
                }
                String code = problem.path("code").asString("");
                byCode.computeIfAbsent(status + " " + code, k -> new LongAdder()).increment();
                if (!ProblemCodes.KNOWN.contains(code)) {
                    return "unknown problem code '" + code + "'";
                }
                if (problem.path("status").asInt() != status) {
                    return "problem status differs from the HTTP status";
                }
                return null;
            }
            if (status / 100 == 3 && request.isSandboxPage() && request.method.equals("POST")) {
                return "the sandbox page decided a charge";
            }
            if (status / 100 == 2 && request.method.equals("POST")) {
                String body = response.bodyText();
                return switch (request.category) {
                    case WEBHOOK_SANDBOX_REPLAY, WEBHOOK_STRIPE_REPLAY, WEBHOOK_DISPUTE_REPLAY ->
                            body.contains("\"duplicate\"") ? null : "a replayed webhook not answered duplicate";
                    case WEBHOOK_ADYEN_REPLAY, WEBHOOK_ADYEN_FORGED, WEBHOOK_ADYEN_MALFORMED ->
                            body.equals("[accepted]") ? null : "an Adyen batch not answered [accepted]";
                    default -> "true".equals(response.header("idempotent-replayed")) ? null
                            : "hostile request accepted";
                };
            }
            return null;
        }

        String report(Duration took) {
            StringBuilder out = new StringBuilder("\n== Hostile input: ").append(total.sum()).append(" requests, seed ")
                    .append(SEED).append(", ").append(CLIENTS).append(" clients, ").append(took.toMillis())
                    .append(" ms (").append(String.format("%.0f", total.sum() * 1000.0 / Math.max(1, took.toMillis())))
                    .append(" req/s)\n-- by category (status: count)\n");
            new TreeMap<>(byCategory).forEach((category, statuses) -> out.append(String.format("%-26s %6d  %s%n",
                    category, statuses.values().stream().mapToLong(LongAdder::sum).sum(), sorted(statuses))));
            out.append("-- by status: ").append(sorted(byStatus)).append('\n');
            out.append("-- by status and code: ").append(sorted(byCode)).append('\n');
            out.append("-- defects: ").append(failureCount.sum()).append('\n');
            new TreeMap<>(defectCounts).forEach((kind, count) -> out.append("  ").append(count.sum()).append(" x ")
                    .append(kind).append("\n      ").append(defectExamples.get(kind)).append('\n'));
            return out.toString();
        }

        private static Map<String, Long> sorted(Map<String, LongAdder> counts) {
            Map<String, Long> sorted = new TreeMap<>();
            counts.forEach((key, value) -> sorted.put(key, value.sum()));
            return sorted;
        }

        private static String abbreviate(String text) {
            return HostileRequests.escape(text.length() > 300 ? text.substring(0, 300) + "…" : text);
        }
    }
}
