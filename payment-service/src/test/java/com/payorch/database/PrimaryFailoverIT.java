package com.payorch.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.payorch.testsupport.PostgresPair;
import com.payorch.testsupport.ServiceInstances;
import com.payorch.testsupport.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The service on a primary and its synchronous streaming standby (two PostgreSQL processes, {@link PostgresPair}),
 * through the multi-host URL with {@code targetServerType=primary}. The primary dies (SIGKILL) or is fenced read-only,
 * the standby is promoted, and the same service instance, not restarted, writes to the new primary again within
 * seconds. Meanwhile every create is answered 201 or 503 {@code service_unavailable}, never 500, and every payment
 * acknowledged before is still there. Skipped where Debian's PostgreSQL is not installed ({@code .ci/run} installs it).
 */
class PrimaryFailoverIT {

    private static final String SCHEMA = "primary_failover_tests";
    private static final String API_KEY = "sk_test_demo";
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final String LISTENING_SESSIONS =
            "select count(*) from pg_stat_activity where query like 'LISTEN %'";

    private PostgresPair pair;
    private ServiceInstances service;

    @BeforeAll
    static void needsDebiansPostgres() {
        assumeTrue(PostgresPair.isAvailable(), "Debian's PostgreSQL with pg_basebackup is not installed");
    }

    @AfterEach
    void stopAll() {
        if (service != null) {
            service.close();
        }
        if (pair != null) {
            pair.close();
        }
    }

    @Test
    void afterThePrimaryIsKilledAndTheStandbyPromotedTheSameInstanceCreatesAgainAndHasLostNothing() {
        pair = PostgresPair.start();
        service = ServiceInstances.start(1, pair.database(), SCHEMA, List.of());
        String first = createdId(create(client()).block(TIMEOUT));
        CreateLoad load = new CreateLoad(client());
        await().atMost(TIMEOUT).until(() -> load.count(201) >= 20);

        Instant killed = Instant.now();
        pair.killPrimary();
        await().atMost(TIMEOUT).until(() -> load.firstAfter(killed, 503).isPresent());
        Instant promoting = Instant.now();
        pair.promoteStandby();
        Instant promoted = Instant.now();
        await().atMost(Duration.ofSeconds(60)).until(() -> load.firstAfter(promoted, 201).isPresent());
        load.stop();

        load.assertEveryAnswerIs201Or503();
        load.printWindows("SIGKILL of the primary", killed, promoting, promoted);
        List<String> acknowledged = new ArrayList<>(load.createdIds());
        acknowledged.add(first);
        assertThat(countOnTheNewPrimary(acknowledged)).as("acknowledged payments on the new primary")
                .isEqualTo(acknowledged.size());
        assertThat(status(client().get().uri("/v1/payments/" + first))).isEqualTo(200);
    }

    @Test
    void aPrimaryFencedReadOnlyAnswers503AndTheSameInstanceMovesToThePromotedStandby() {
        pair = PostgresPair.start();
        service = ServiceInstances.start(1, pair.database(), SCHEMA, List.of());
        String first = createdId(create(client()).block(TIMEOUT));
        CreateLoad load = new CreateLoad(client());
        await().atMost(TIMEOUT).until(() -> load.count(201) >= 20);

        Instant fenced = Instant.now();
        pair.fencePrimary();
        // The old primary still answers, but refuses writes (SQLSTATE 25006): 503, and its connections are dropped.
        await().atMost(TIMEOUT).until(() -> load.firstAfter(fenced, 503).isPresent());
        Instant promoting = Instant.now();
        pair.promoteStandby();
        Instant promoted = Instant.now();
        // A create sent before the fence may have committed its first transaction there (and, replication being
        // synchronous, on the standby) and be answered after the promotion: only one sent after it proves the move.
        await().atMost(Duration.ofSeconds(60)).until(() -> load.firstSentAfter(promoted, 201).isPresent());
        load.stop();

        load.assertEveryAnswerIs201Or503();
        load.printWindows("read-only fence of the primary", fenced, promoting, promoted);
        String afterPromotion = createdId(load.firstSentAfter(promoted, 201).orElseThrow());
        assertThat(pair.query(pair.second(), countOf(List.of(afterPromotion)))).as("written to the new primary")
                .isEqualTo("1");
        assertThat(pair.query(pair.first(), countOf(List.of(afterPromotion)))).as("not to the fenced one")
                .isEqualTo("0");
        // The job wake-ups' LISTEN connection moves too: the fenced primary stays up and would never drop it.
        await().atMost(TIMEOUT).until(() -> "1".equals(pair.query(pair.second(), LISTENING_SESSIONS)));
        List<String> acknowledged = new ArrayList<>(load.createdIds());
        acknowledged.add(first);
        assertThat(countOnTheNewPrimary(acknowledged)).isEqualTo(acknowledged.size());
        assertThat(status(client().get().uri("/v1/payments/" + first))).isEqualTo(200);
    }

    @Test
    void aHostThatIsDownAndAStandbyListedBeforeThePrimaryArePassedOver() {
        pair = PostgresPair.start();
        TestDatabase primaryLast = PostgresPair.multiHost(PostgresPair.freePort(), pair.second().port(),
                pair.first().port());
        service = ServiceInstances.start(1, primaryLast, SCHEMA, List.of());

        String id = createdId(create(client()).block(TIMEOUT));

        assertThat(status(client().get().uri("/v1/payments/" + id))).isEqualTo(200);
        assertThat(pair.query(pair.first(), countOf(List.of(id)))).isEqualTo("1");
    }

    private WebClient client() {
        return service.client(0);
    }

    private long countOnTheNewPrimary(List<String> ids) {
        return Long.parseLong(pair.query(pair.second(), countOf(ids)));
    }

    /** Payment ids are the service's own ({@code pay_} and letters): safe in a literal. */
    private static String countOf(List<String> ids) {
        return "select count(*) from " + SCHEMA + ".payments where id in ("
                + ids.stream().map(id -> "'" + id + "'").collect(Collectors.joining(",")) + ")";
    }

    private static Mono<Answer> create(WebClient client) {
        String body = """
                {"bookingId": "bk_failover_%s", "amount": 12000, "currency": "JPY", "paymentMethod": "pm_card_ok"}"""
                .formatted(UUID.randomUUID().toString().substring(0, 12));
        return Mono.defer(() -> {
            Instant sent = Instant.now();
            return client.post().uri("/v1/payments")
                    .header("Authorization", "Bearer " + API_KEY)
                    .header("Idempotency-Key", UUID.randomUUID().toString())
                    .header("Content-Type", "application/json")
                    .bodyValue(body)
                    .exchangeToMono(response -> response.bodyToMono(String.class).defaultIfEmpty("")
                            .map(text -> new Answer(sent, Instant.now(), response.statusCode().value(), text)))
                    .onErrorResume(e -> Mono.just(new Answer(sent, Instant.now(), 0, e.toString())));
        });
    }

    private static int status(WebClient.RequestHeadersSpec<?> request) {
        return request.header("Authorization", "Bearer " + API_KEY)
                .exchangeToMono(response -> response.releaseBody().thenReturn(response.statusCode().value()))
                .block(TIMEOUT);
    }

    private static String createdId(Answer answer) {
        assertThat(answer.status()).as(answer.body()).isEqualTo(201);
        int at = answer.body().indexOf("\"id\":\"") + 6;
        return answer.body().substring(at, answer.body().indexOf('"', at));
    }

    /** One answer to a create: when it was sent, when it arrived, its status (0: no HTTP answer) and body. */
    private record Answer(Instant sent, Instant at, int status, String body) {

        Duration latency() {
            return Duration.between(sent, at);
        }
    }

    /** Creates at up to 40 a second, up to 16 at once, each with a new key, every answer kept. */
    private static final class CreateLoad {

        private final Queue<Answer> answers = new ConcurrentLinkedQueue<>();
        private final Disposable running;

        CreateLoad(WebClient client) {
            running = Flux.interval(Duration.ofMillis(25))
                    .onBackpressureDrop()
                    .flatMap(tick -> create(client), 16)
                    .subscribe(answers::add);
        }

        void stop() {
            running.dispose();
        }

        long count(int status) {
            return answers.stream().filter(a -> a.status() == status).count();
        }

        Optional<Answer> firstAfter(Instant moment, int status) {
            return answers.stream().filter(a -> a.status() == status && a.at().isAfter(moment))
                    .min(Comparator.comparing(Answer::at));
        }

        Optional<Answer> firstSentAfter(Instant moment, int status) {
            return answers.stream().filter(a -> a.status() == status && a.sent().isAfter(moment))
                    .min(Comparator.comparing(Answer::sent));
        }

        List<String> createdIds() {
            return answers.stream().filter(a -> a.status() == 201).map(PrimaryFailoverIT::createdId).toList();
        }

        void assertEveryAnswerIs201Or503() {
            assertThat(answers).allSatisfy(answer -> {
                assertThat(answer.status()).as(answer.body()).isIn(201, 503);
                if (answer.status() == 503) {
                    assertThat(answer.body()).contains("\"code\":\"service_unavailable\"");
                }
            });
        }

        /** The failover's figures: when the 503s began and ended, and how long the service took after the promotion. */
        void printWindows(String fault, Instant faultAt, Instant promoting, Instant promoted) {
            List<Instant> refused = answers.stream().filter(a -> a.status() == 503).map(Answer::at).sorted().toList();
            Instant firstRefused = refused.get(0);
            Instant lastRefused = refused.get(refused.size() - 1);
            Instant firstWrite = firstAfter(promoted, 201).orElseThrow().at();
            System.out.printf("Failover after %s: first 503 %d ms after it; promotion asked %d ms after it and"
                            + " done in %d ms; first 201 on the new primary %d ms after the promotion; 503s from the"
                            + " first to the last: %d ms; answers: %d × 201 (median %d ms), %d × 503 (median %d ms)%n",
                    fault, millis(faultAt, firstRefused), millis(faultAt, promoting), millis(promoting, promoted),
                    millis(promoted, firstWrite), millis(firstRefused, lastRefused), count(201), medianMillis(201),
                    refused.size(), medianMillis(503));
        }

        private long medianMillis(int status) {
            List<Long> latencies = answers.stream().filter(a -> a.status() == status)
                    .map(a -> a.latency().toMillis()).sorted().toList();
            return latencies.get(latencies.size() / 2);
        }

        private static long millis(Instant from, Instant to) {
            return Duration.between(from, to).toMillis();
        }
    }
}
