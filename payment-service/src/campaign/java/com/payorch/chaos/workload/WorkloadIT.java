package com.payorch.chaos.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.payorch.chaos.history.History;
import com.payorch.chaos.history.HistoryEntry;
import com.payorch.chaos.history.HistoryEntry.Kind;
import com.payorch.chaos.workload.WorkloadTargets.Merchant;
import com.payorch.fakes.FakeAdyen;
import com.payorch.fakes.FakeStripe;
import com.payorch.testsupport.ServiceInstances;
import com.payorch.testsupport.TestQueries;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import tools.jackson.databind.json.JsonMapper;

/**
 * The campaign's workload against three in-JVM instances on one schema, with the Stripe and Adyen fakes and a
 * merchant per route, and no faults: its history is complete and well formed, every kind of operation got through,
 * and what the service acknowledged is there and replays byte for byte.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WorkloadIT {

    private static final String STRIPE_KEY = "sk_test_51FakeWorkloadSecretKeyDoNotLog0014";
    private static final String STRIPE_WEBHOOK_SECRET = "whsec_FakeWorkloadEndpointSecretDoNotLog14";
    private static final String ADYEN_KEY = "AQE_FakeWorkloadAdyenKeyDoNotLog_0014";
    private static final String ADYEN_ACCOUNT = "PayorchWorkloadECOM";
    private static final String ADYEN_HMAC = "44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056";
    private static final String SANDBOX_SECRET = "whsec_ND6TizoORtDE/ir/gZloZLqP5sBT2eOENEVdcVM2d9Y=";
    private static final JsonMapper JSON = new JsonMapper();

    private final FakeStripe stripe = new FakeStripe(0).acceptKey(STRIPE_KEY);
    private final FakeAdyen adyen = new FakeAdyen().acceptKey(ADYEN_KEY);
    private final List<Merchant> merchants = List.of(new Merchant("wl_sandbox", "sk_test_wl_sandbox", "sandbox"),
            new Merchant("wl_stripe", "sk_test_wl_stripe", "stripe"),
            new Merchant("wl_adyen", "sk_test_wl_adyen", "adyen"),
            new Merchant("wl_failover", "sk_test_wl_failover", "stripe,adyen"));
    private ServiceInstances instances;
    private List<String> urls;
    private List<HistoryEntry> history;
    private Workload.Summary summary;
    private Workload workload;
    private History recorder;

    @BeforeAll
    void runTheWorkloadForFifteenSeconds() {
        List<String> arguments = new ArrayList<>(List.of(
                "--payments.gateway.sandbox.webhook-secret=" + SANDBOX_SECRET,
                // Recovery soon, as in the campaign: what the clients do not know of is settled by asking.
                "--payments.recovery.pending-after=PT5S",
                "--payments.recovery.processing-after=PT10S",
                "--payments.recovery.interval=PT1S",
                "--payments.connectors.stripe.api-base=" + stripe.baseUrl(),
                "--payments.connectors.adyen.checkout-url=" + adyen.checkoutUrl()));
        for (Merchant merchant : merchants) {
            String prefix = "--payments.merchants." + merchant.id();
            arguments.add(prefix + ".api-key=" + merchant.apiKey());
            arguments.add(prefix + ".routing=" + merchant.routing());
            if (merchant.routing().contains("stripe")) {
                arguments.add(prefix + ".connectors.stripe.secret-key=" + STRIPE_KEY);
                arguments.add(prefix + ".connectors.stripe.webhook-secret=" + STRIPE_WEBHOOK_SECRET);
            }
            if (merchant.routing().contains("adyen")) {
                arguments.add(prefix + ".connectors.adyen.api-key=" + ADYEN_KEY);
                arguments.add(prefix + ".connectors.adyen.merchant-account=" + ADYEN_ACCOUNT);
                arguments.add(prefix + ".connectors.adyen.hmac-key=" + ADYEN_HMAC);
            }
        }
        instances = ServiceInstances.start(3, "chaos_workload_tests", arguments);
        urls = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            urls.add("http://localhost:"
                    + ((WebServerApplicationContext) instances.context(i)).getWebServer().getPort());
        }
        WorkloadTargets targets = new WorkloadTargets(urls, merchants, SANDBOX_SECRET, stripe, STRIPE_WEBHOOK_SECRET,
                adyen, ADYEN_ACCOUNT, ADYEN_HMAC);
        // A few seconds of the same mix first, not looked at: the instances' first requests are slow (JIT).
        try (History warmUp = History.create(Path.of("target", "chaos", "workload-warm-up-history.jsonl"))) {
            new Workload(targets, warmUp, 1L, 3).settleWithin(Duration.ofSeconds(1)).run(Duration.ofSeconds(4));
        }
        // Kept in target/ for a look after a failure.
        Path file = Path.of("target", "chaos", "workload-test-history.jsonl");
        // Open until the end: the gateways' side goes on recording after the run (withTheGatewaysSide…).
        recorder = History.create(file);
        // No faults here: a generous time-out, so that a busy machine does not turn slow answers into lost ones.
        workload = new Workload(targets, recorder, 14L, 6).clientTimeout(Duration.ofSeconds(8));
        workload.run(Duration.ofSeconds(15));
        // On a machine too busy to get every kind of operation through in 15 s, up to three more runs of 10 s (the
        // clients go on where they stopped).
        for (int more = 0; more < 3 && !missing(History.read(file)).isEmpty(); more++) {
            workload.run(Duration.ofSeconds(10));
        }
        summary = workload.summary();
        history = History.read(file);
        System.out.println("Workload summary: " + summary.outcomes());
    }

    @AfterAll
    void stop() {
        if (recorder != null) {
            recorder.close();
        }
        if (instances != null) {
            instances.close();
        }
        stripe.close();
        adyen.close();
    }

    @Test
    void everyInvokeHasExactlyOneCompletionOfTheSameRequestAndTheSummaryCountsThem() {
        long completions = assertEveryInvokeCompletedOnce(history);
        assertThat(summary.outcomes().values().stream().mapToLong(Long::longValue).sum()).isEqualTo(completions);
    }

    @Test
    void instancesThatAreDownOrFrozenCostLostEntriesAndTheClientsGoOn() throws Exception {
        int refusedPort;
        try (ServerSocket closed = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            refusedPort = closed.getLocalPort();
        }
        // i2 accepts connections and never answers (a frozen process), i3 refuses them (a killed one).
        try (ServerSocket frozen = new ServerSocket(0, 200, InetAddress.getLoopbackAddress())) {
            List<String> broken = List.of(urls.get(0), "http://127.0.0.1:" + frozen.getLocalPort(),
                    "http://127.0.0.1:" + refusedPort);
            Path file = Path.of("target", "chaos", "workload-outage-history.jsonl");
            long started = System.nanoTime();
            Workload.Summary outage;
            try (History recorder = History.create(file)) {
                outage = new Workload(new WorkloadTargets(broken, merchants, SANDBOX_SECRET, stripe,
                        STRIPE_WEBHOOK_SECRET, adyen, ADYEN_ACCOUNT, ADYEN_HMAC), recorder, 15L, 4)
                        .settleWithin(Duration.ofSeconds(3))
                        .run(Duration.ofSeconds(6));
            }
            Duration took = Duration.ofNanos(System.nanoTime() - started);
            List<HistoryEntry> entries = History.read(file);

            assertThat(took).isLessThan(Duration.ofSeconds(45));
            assertEveryInvokeCompletedOnce(entries);
            List<HistoryEntry> lost = entries.stream().filter(e -> e.kind() == Kind.LOST).toList();
            assertThat(lost).extracting(HistoryEntry::target).contains("i2", "i3");
            assertThat(lost).filteredOn(e -> e.target().equals("i2")).extracting(HistoryEntry::note)
                    .allMatch(note -> note.contains("Timeout"));
            assertThat(lost).filteredOn(e -> e.target().equals("i3")).extracting(HistoryEntry::note)
                    .allMatch(note -> note.contains("ConnectException"));
            assertThat(entries).filteredOn(e -> e.acknowledged() && e.operation().equals("create"))
                    .isNotEmpty().extracting(HistoryEntry::target).containsOnly("i1");
            assertThat(outage.outcomes()).containsKey("create lost");
        }
    }

    @Test
    void withTheGatewaysSideKeptRunningNoPaymentAndNoRefundStaysOpen() {
        TestQueries queries = instances.queries();
        try (Workload.Background gateways = workload.gatewaysInBackground()) {
            await().atMost(Duration.ofSeconds(45)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
                assertThat(queries.count("select count(*) from payments where status in ('PENDING', 'PROCESSING')"))
                        .as("payments open").isZero();
                assertThat(queries.count("select count(*) from refunds where status = 'PENDING'"))
                        .as("refunds open").isZero();
            });
        }
        assertThat(queries.count("select count(*) from payments where status = 'COMPLETED'")).isPositive();
        assertThat(queries.count("select count(*) from payments where status = 'FAILED'")).isPositive();
        assertThat(queries.count("select count(*) from refunds where status = 'SUCCEEDED'")).isPositive();
    }

    @Test
    void noRequestIsAnsweredWithA5xxAndNoneIsLostButForATimeOut() {
        assertThat(history).filteredOn(e -> e.kind() == Kind.ANSWERED && e.status() >= 500).isEmpty();
        assertThat(history).filteredOn(e -> e.kind() == Kind.LOST).extracting(HistoryEntry::note)
                .as("no connection refused or reset without faults").allMatch(note -> note.contains("timed out"));
    }

    @Test
    void everyKindOfOperationIsAcknowledgedAtLeastOnceAndAReusedKeyIsAlwaysRefused() {
        assertThat(missing(history)).as("summary %s", summary.outcomes()).isEmpty();
        List<Integer> mismatches = history.stream().filter(e -> e.kind() == Kind.ANSWERED
                && e.operation().equals("create-mismatch")).map(HistoryEntry::status).toList();
        assertThat(mismatches).isNotEmpty().containsOnly(422);
    }

    @Test
    void everyAcknowledgedCreateIsInTheDatabaseAndEveryReplayOfItIsTheSameBytes() {
        TestQueries queries = instances.queries();
        Map<String, HistoryEntry> firstByKey = new LinkedHashMap<>();
        for (HistoryEntry entry : history) {
            if (entry.acknowledged() && entry.operation().equals("create")) {
                String key = entry.requestHeaders().get("Authorization") + " "
                        + entry.requestHeaders().get("Idempotency-Key");
                HistoryEntry first = firstByKey.putIfAbsent(key, entry);
                if (first != null) {
                    assertThat(entry.responseBody()).isEqualTo(first.responseBody());
                }
            }
        }
        assertThat(firstByKey).hasSizeGreaterThan(20);
        Set<String> ids = firstByKey.values().stream()
                .map(e -> JSON.readTree(e.responseBody()).path("id").asString()).collect(Collectors.toSet());
        assertThat(ids).hasSize(firstByKey.size());
        for (String id : ids) {
            assertThat(queries.count("select count(*) from payments where id = $1", id)).as(id).isEqualTo(1);
        }
        long replayed = 0;
        for (HistoryEntry entry : history) {
            if (entry.acknowledged() && entry.operation().equals("create-replay")) {
                String key = entry.requestHeaders().get("Authorization") + " "
                        + entry.requestHeaders().get("Idempotency-Key").replace("\"", "");
                assertThat(entry.responseBody()).isEqualTo(firstByKey.get(key).responseBody());
                assertThat(entry.responseHeaders()).containsEntry("idempotent-replayed", "true");
                replayed++;
            }
        }
        assertThat(replayed).isPositive();

        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        int instance = 0;
        for (HistoryEntry original : firstByKey.values().stream().limit(25).toList()) {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(urls.get(instance++ % 3) + original.path()))
                    .POST(HttpRequest.BodyPublishers.ofString(original.requestBody()));
            original.requestHeaders().forEach(request::header);
            HttpResponse<String> answer = send(http, request.build());
            assertThat(answer.statusCode()).isEqualTo(original.status());
            assertThat(answer.body()).isEqualTo(original.responseBody());
            assertThat(answer.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        }
    }

    @Test
    void refundsNeverExceedTheirPaymentAndEveryPaymentHasOneBookingGuardWinner() {
        TestQueries queries = instances.queries();
        assertThat(queries.count("select count(*) from refunds")).as("refunds made").isPositive();
        assertThat(queries.count("""
                select count(*) from payments p where (select coalesce(sum(r.amount), 0) from refunds r
                 where r.payment_id = p.id and r.status in ('PENDING', 'SUCCEEDED')) > p.amount""")).isZero();
        assertThat(queries.count("""
                select count(*) from (select merchant_id, booking_id from payments
                 where status in ('PENDING', 'PROCESSING', 'COMPLETED')
                 group by merchant_id, booking_id having count(*) > 1) twice""")).isZero();
    }

    /**
     * What the history lacks of what the workload is there to do: an acknowledged answer for every kind of
     * operation, a reused key refused, the booking guard and the refund limit hit, twenty payments created.
     */
    private static List<String> missing(List<HistoryEntry> entries) {
        List<String> missing = new ArrayList<>();
        Set<String> acknowledged = entries.stream().filter(HistoryEntry::acknowledged).map(HistoryEntry::operation)
                .collect(Collectors.toSet());
        for (String operation : List.of("create", "create-replay", "retry", "refund", "read", "webhook-sandbox",
                "webhook-stripe", "webhook-adyen")) {
            if (!acknowledged.contains(operation)) {
                missing.add(operation + " acknowledged");
            }
        }
        Map<String, String> refusals = Map.of("create-mismatch", "idempotency_key_reused", "create", "booking_",
                "refund", "amount_exceeds_refundable", "read", "not_found");
        refusals.forEach((operation, code) -> {
            if (entries.stream().noneMatch(e -> e.kind() == Kind.ANSWERED && e.operation().equals(operation)
                    && e.status() >= 400 && e.responseBody().contains("\"code\":\"" + code))) {
                missing.add(operation + " refused with " + code);
            }
        });
        long created = entries.stream().filter(e -> e.acknowledged() && e.operation().equals("create"))
                .map(e -> e.requestHeaders().get("Idempotency-Key")).distinct().count();
        if (created < 20) {
            missing.add("20 payments created (" + created + ")");
        }
        return missing;
    }

    /** Each process alternates INVOKE and the completion of that same request; returns the completions. */
    private static long assertEveryInvokeCompletedOnce(List<HistoryEntry> entries) {
        Map<String, HistoryEntry> open = new HashMap<>();
        long completions = 0;
        for (HistoryEntry entry : entries) {
            assertThat(entry.kind()).isNotEqualTo(Kind.NEMESIS);
            if (entry.kind() == Kind.INVOKE) {
                assertThat(open.put(entry.process(), entry)).as("a second request open in %s", entry.process())
                        .isNull();
                continue;
            }
            HistoryEntry invoke = open.remove(entry.process());
            assertThat(invoke).as("completion without an invoke: %s", entry).isNotNull();
            assertThat(List.of(entry.operation(), entry.target(), entry.method(), entry.path()))
                    .isEqualTo(List.of(invoke.operation(), invoke.target(), invoke.method(), invoke.path()));
            assertThat(entry.requestBody()).isEqualTo(invoke.requestBody());
            assertThat(entry.seq()).isGreaterThan(invoke.seq());
            completions++;
        }
        assertThat(open).as("requests left without completion").isEmpty();
        return completions;
    }

    private static HttpResponse<String> send(HttpClient http, HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
