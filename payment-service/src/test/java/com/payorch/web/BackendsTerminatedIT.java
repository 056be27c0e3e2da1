package com.payorch.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.testsupport.ApiTest;
import com.payorch.testsupport.SecondConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.test.context.TestPropertySource;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * The service's database connections are terminated from outside (`pg_terminate_backend`, as an operator, a
 * failover or a crashing server does) while requests run. Every such request answers 503 `service_unavailable`
 * with `Retry-After`, never 500, and the same request sent again afterwards succeeds. Only this context's
 * connections are terminated (they carry their own `application_name`), so other tests are not disturbed.
 */
@TestPropertySource(properties = "spring.r2dbc.properties.applicationName=" + BackendsTerminatedIT.APPLICATION)
class BackendsTerminatedIT extends ApiTest {

    static final String APPLICATION = "payments-backends-terminated-test";

    record Answer(int status, String retryAfter, String body) {
    }

    private CompletableFuture<Answer> send(HttpMethod method, String path, String idempotencyKey, String body) {
        WebClient.RequestBodySpec request = WebClient.builder().baseUrl("http://localhost:" + port).build()
                .method(method).uri(path)
                .header("Authorization", "Bearer " + DEMO_KEY);
        if (idempotencyKey != null) {
            request.header("Idempotency-Key", idempotencyKey);
        }
        if (body != null) {
            request.header("Content-Type", "application/json").bodyValue(body);
        }
        return request.exchangeToMono(response -> response.bodyToMono(String.class).defaultIfEmpty("")
                        .map(text -> new Answer(response.statusCode().value(),
                                response.headers().asHttpHeaders().getFirst(HttpHeaders.RETRY_AFTER), text)))
                .toFuture();
    }

    private static void assertServiceUnavailable(Answer answer) {
        assertThat(answer.status()).as(answer.body()).isEqualTo(503);
        assertThat(answer.retryAfter()).isEqualTo("1");
        assertThat(answer.body()).contains("\"code\":\"service_unavailable\"").doesNotContain("Exception")
                .doesNotContain("SQL");
    }

    private static void awaitBackendWaiting(SecondConnection second, String queryFragment, AtomicInteger pid) {
        Awaitility.await().atMost(Duration.ofSeconds(20))
                .until(() -> { pid.set(second.backendWaitingOnLock(queryFragment)); return pid.get() > 0; });
    }

    @Test
    void aCreateWhoseBackendIsTerminatedBeforeAnythingCommittedIs503AndItsKeyIsFree() throws Exception {
        String booking = unique("bk");
        String key = unique("key");
        String body = paymentBody(booking);
        CompletableFuture<Answer> answer;
        try (SecondConnection second = new SecondConnection()) {
            // An uncommitted booking row with the same id: the create's insert waits for this transaction.
            second.execute("insert into bookings (merchant_id, id, status, version, created_at, updated_at)"
                    + " values ('demo', ?, 'AWAITING_PAYMENT', 1, now(), now())", booking);
            answer = send(HttpMethod.POST, "/v1/payments", key, body);
            AtomicInteger pid = new AtomicInteger();
            awaitBackendWaiting(second, "insert into bookings", pid);
            second.terminate(pid.get());
            second.rollback();
        }
        assertServiceUnavailable(answer.get());
        assertThat(count("select count(*) from payments where booking_id = $1", booking)).isZero();

        // Nothing was committed under the key, so it is free: the retry creates the payment, once.
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> {
            Answer retry = send(HttpMethod.POST, "/v1/payments", key, body).get();
            assertThat(retry.status()).as(retry.body()).isIn(201, 503);
            return retry.status() == 201;
        });
        assertThat(count("select count(*) from payments where booking_id = $1", booking)).isEqualTo(1);
    }

    @Test
    void aReadWhoseBackendIsTerminatedIs503() throws Exception {
        String paymentId = createPayment(unique("bk"), "pm_card_ok");
        CompletableFuture<Answer> answer;
        try (SecondConnection second = new SecondConnection()) {
            second.execute("lock table payments in access exclusive mode");
            answer = send(HttpMethod.GET, "/v1/payments/" + paymentId, null, null);
            AtomicInteger pid = new AtomicInteger();
            // The read's own statement (its beginning: pg_stat_activity keeps only the first 1 kB of a query), not a
            // background job's that waits on the same lock.
            awaitBackendWaiting(second, "amount_disputed, coalesce((select json_agg", pid);
            second.terminate(pid.get());
            second.rollback();
        }
        assertServiceUnavailable(answer.get());
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() ->
                send(HttpMethod.GET, "/v1/payments/" + paymentId, null, null).get().status() == 200);
    }

    @Test
    void requestsRunningWhileAllConnectionsAreTerminatedAreNever500() throws Exception {
        String paymentId = createPayment(unique("bk"), "pm_card_ok");
        Map<String, String> createsWithA503 = new java.util.LinkedHashMap<>();
        List<Answer> answers = new ArrayList<>();
        try (SecondConnection second = new SecondConnection()) {
            for (int round = 0; round < 5; round++) {
                List<CompletableFuture<Answer>> running = new ArrayList<>();
                Map<CompletableFuture<Answer>, String[]> creates = new java.util.HashMap<>();
                for (int i = 0; i < 6; i++) {
                    String key = unique("key");
                    String body = paymentBody(unique("bk"));
                    CompletableFuture<Answer> create = send(HttpMethod.POST, "/v1/payments", key, body);
                    creates.put(create, new String[] {key, body});
                    running.add(create);
                    running.add(send(HttpMethod.GET, "/v1/payments/" + paymentId, null, null));
                }
                second.terminateAll(APPLICATION);
                for (CompletableFuture<Answer> request : running) {
                    Answer answer = request.get();
                    answers.add(answer);
                    if (answer.status() == 503 && creates.containsKey(request)) {
                        createsWithA503.put(creates.get(request)[0], creates.get(request)[1]);
                    }
                }
            }
        }
        assertThat(answers).allSatisfy(answer -> {
            assertThat(answer.status()).as(answer.body()).isIn(200, 201, 503);
            if (answer.status() == 503) {
                assertServiceUnavailable(answer);
            }
        });

        // Each create that met the outage is sent again with its key: it ends created (resumed or new), once.
        createsWithA503.forEach((key, body) -> Awaitility.await().atMost(Duration.ofSeconds(40)).until(() -> {
            Answer retry = send(HttpMethod.POST, "/v1/payments", key, body).get();
            assertThat(retry.status()).as(retry.body()).isIn(201, 409, 503);
            return retry.status() == 201;
        }));
        createsWithA503.values().forEach(body -> {
            String booking = body.substring(body.indexOf("bk_"), body.indexOf('"', body.indexOf("bk_")));
            assertThat(count("select count(*) from payments where booking_id = $1", booking)).isEqualTo(1);
        });
    }
}
