package com.payorch.holds;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.testsupport.ApiTest;
import com.payorch.testsupport.ServiceInstances;
import com.payorch.testsupport.SignedWebhooks;
import com.payorch.testsupport.TestQueries;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.http.HttpHeaders;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Captures and cancels of one hold racing each other over three service instances sharing one database: one
 * capture reaches the sandbox, never more than was authorised, a capture racing a cancel has exactly one winner, and
 * a key's answer replayed from another instance is the same bytes.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HoldConcurrencyIT {

    private static final String SCHEMA = "hold_concurrency_tests";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private ServiceInstances instances;
    private TestQueries queries;

    record Answer(int status, HttpHeaders headers, byte[] body) {
        String code() {
            return status == 200 ? "-" : JSON.readTree(body).path("code").asText();
        }

        String kind() {
            return status + " " + code();
        }

        boolean replayed() {
            return "true".equals(headers.getFirst("Idempotent-Replayed"));
        }
    }

    @BeforeAll
    void startThreeInstances() {
        instances = ServiceInstances.start(3, SCHEMA, List.of(
                "--payments.gateway.sandbox.webhook-secret=" + ApiTest.WEBHOOK_SECRET));
        queries = instances.queries();
    }

    @AfterAll
    void stopInstances() {
        instances.close();
    }

    /** A manual payment created on one instance and authorised by the sandbox's webhook sent to another. */
    private String authorizedHold() {
        String booking = "bk_" + UUID.randomUUID().toString().substring(0, 12);
        String location = instances.client(0).post().uri("/v1/payments")
                .header("Authorization", "Bearer " + ApiTest.DEMO_KEY)
                .header("Idempotency-Key", "key_" + UUID.randomUUID())
                .header("Content-Type", "application/json")
                .bodyValue(HoldBadInputIT.holdBody(booking, "pm_card_ok"))
                .retrieve().toBodilessEntity().block(TIMEOUT).getHeaders().getLocation().toString();
        String paymentId = location.substring("/v1/payments/".length());
        // the sandbox authorises a hold when it settles it (webhook-delay); its webhook (off here) is sent by hand
        Awaitility.await().atMost(TIMEOUT).until(() -> queries.count("select count(*) from sandbox_charges"
                + " where payment_id = $1 and status = 'authorized'", paymentId) == 1);
        String charge = queries.text("select id from sandbox_charges where payment_id = $1", paymentId);
        String webhook = """
                {"type": "payment.authorized", "data": {"paymentId": "%s", "chargeId": "%s", "amount": 12000,
                "currency": "JPY"}}""".formatted(paymentId, charge);
        String answer = instances.client(1).post().uri("/v1/webhooks/sandbox")
                .headers(h -> h.addAll(SignedWebhooks.sign(ApiTest.WEBHOOK_SECRET, "msg_" + UUID.randomUUID(),
                        Instant.now(), webhook)))
                .header("Content-Type", "application/json").bodyValue(webhook)
                .retrieve().bodyToMono(String.class).block(TIMEOUT);
        assertThat(answer).contains("applied");
        assertThat(queries.statusOf(paymentId)).isEqualTo("AUTHORIZED");
        return paymentId;
    }

    private Mono<Answer> post(int instance, String paymentId, String action, String key, String body) {
        return instances.client(instance).post().uri("/v1/payments/" + paymentId + "/" + action)
                .header("Authorization", "Bearer " + ApiTest.DEMO_KEY)
                .header("Idempotency-Key", key)
                .header("Content-Type", "application/json")
                .bodyValue(body)
                .exchangeToMono(r -> r.bodyToMono(byte[].class).defaultIfEmpty(new byte[0])
                        .map(bytes -> new Answer(r.statusCode().value(), r.headers().asHttpHeaders(), bytes)));
    }

    /** What the sandbox holds for the payment's charge: its status and what was captured of it. */
    private JsonNode sandboxCharge(String paymentId) {
        byte[] body = instances.client(2).get().uri("/v1/sandbox/charges?paymentId=" + paymentId)
                .header("Authorization", "Bearer " + ApiTest.DEMO_KEY)
                .retrieve().bodyToMono(byte[].class).block(TIMEOUT);
        JsonNode data = JSON.readTree(body).path("data");
        assertThat(data.size()).isEqualTo(1);
        return data.get(0);
    }

    private long capturesSent(String paymentId) {
        return queries.count("select captures from payments where id = $1", paymentId);
    }

    @Test
    void fiftyParallelCapturesOverThreeInstancesMakeOneCapture() {
        String paymentId = authorizedHold();
        String sharedA = "cap_a_" + UUID.randomUUID();
        String sharedB = "cap_b_" + UUID.randomUUID();
        record Request(String key, String body) {
        }
        List<Request> requests = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            requests.add(switch (i % 5) {
                case 0 -> new Request(sharedA, "{\"amount\": 7000}");
                case 1 -> new Request(sharedB, "{}");
                default -> new Request("cap_" + i + "_" + UUID.randomUUID(), "{\"amount\": " + (1000 + i) + "}");
            });
        }

        List<Map.Entry<Request, Answer>> sent = Flux.range(0, 50)
                .flatMap(i -> post(i % 3, paymentId, "capture", requests.get(i).key(), requests.get(i).body())
                        .map(answer -> Map.entry(requests.get(i), answer)), 50)
                .collectList().block(TIMEOUT);
        List<Answer> answers = sent.stream().map(Map.Entry::getValue).toList();

        assertThat(answers).extracting(Answer::kind).isSubsetOf("200 -", "409 invalid_transition",
                "409 idempotency_request_in_progress");
        List<Answer> executed = answers.stream().filter(a -> a.status() == 200 && !a.replayed()).toList();
        assertThat(executed).as("exactly one capture was executed").hasSize(1);
        assertThat(capturesSent(paymentId)).isEqualTo(1);
        JsonNode winner = JSON.readTree(executed.get(0).body());
        Request winnerRequest = sent.stream().filter(e -> e.getValue() == executed.get(0)).findFirst().orElseThrow()
                .getKey();
        long captured = queries.count("select coalesce(capture_amount, amount_captured) from payments where id = $1",
                paymentId);
        JsonNode asked = JSON.readTree(winnerRequest.body()).path("amount");
        assertThat(captured).isEqualTo(asked.isMissingNode() ? 12000 : asked.asLong());
        assertThat(winner.path("status").asText()).isIn("CAPTURING", "COMPLETED");
        // every 200 is that one capture (its replays), byte for byte
        assertThat(answers.stream().filter(a -> a.status() == 200))
                .allSatisfy(a -> assertThat(a.body()).isEqualTo(executed.get(0).body()));
        for (int instance = 0; instance < 3; instance++) {
            Answer replay = post(instance, paymentId, "capture", winnerRequest.key(), winnerRequest.body())
                    .block(TIMEOUT);
            assertThat(replay.status()).isEqualTo(200);
            assertThat(replay.replayed()).isTrue();
            assertThat(replay.body()).isEqualTo(executed.get(0).body());
        }
        // refused keys were not stored: only the winner's remains
        assertThat(queries.count("select count(*) from idempotency_keys where resource_id = $1"
                + " and idempotency_key like 'cap_%'", paymentId)).isEqualTo(1);
        JsonNode charge = sandboxCharge(paymentId);
        assertThat(charge.path("captures").asInt()).as("captures the sandbox was asked for").isEqualTo(1);
        Awaitility.await().atMost(TIMEOUT).until(() -> "succeeded".equals(sandboxCharge(paymentId).path("status")
                .asText()));
        assertThat(sandboxCharge(paymentId).path("amountCaptured").asLong()).isEqualTo(captured);
        assertThat(sandboxCharge(paymentId).path("captures").asInt()).isEqualTo(1);
    }

    @Test
    void aCaptureRacingACancelAcrossInstancesHasExactlyOneWinnerInEitherOrder() {
        for (int round = 0; round < 8; round++) {
            String paymentId = authorizedHold();
            boolean captureFirst = round % 2 == 0;
            Mono<Answer> capture = post(round % 3, paymentId, "capture", "cap_" + UUID.randomUUID(), "{}");
            Mono<Answer> cancel = post((round + 1) % 3, paymentId, "cancel", "can_" + UUID.randomUUID(), "{}");

            // zip subscribes in argument order: the capture's request leaves first in even rounds, the cancel's in odd
            Answer[] both = captureFirst
                    ? Mono.zip(capture, cancel).map(t -> new Answer[] {t.getT1(), t.getT2()}).block(TIMEOUT)
                    : Mono.zip(cancel, capture).map(t -> new Answer[] {t.getT2(), t.getT1()}).block(TIMEOUT);
            Answer captured = both[0];
            Answer cancelled = both[1];

            String what = "round " + round + ": capture " + captured.kind() + ", cancel " + cancelled.kind();
            assertThat(List.of(captured.kind(), cancelled.kind())).as(what)
                    .containsExactlyInAnyOrder("200 -", "409 invalid_transition");
            boolean cancelWon = cancelled.status() == 200;
            assertThat(JSON.readTree((cancelWon ? cancelled : captured).body()).path("cancelRequestedAt").isNull())
                    .as(what).isEqualTo(!cancelWon);
            JsonNode charge = sandboxCharge(paymentId);
            if (cancelWon) {
                assertThat(capturesSent(paymentId)).as(what).isZero();
                assertThat(charge.path("captures").asInt()).as(what).isZero();
                assertThat(charge.path("status").asText()).as(what).isEqualTo("cancelled");
                assertThat(queries.statusOf(paymentId)).as(what).isEqualTo("CANCELLED");
            } else {
                assertThat(capturesSent(paymentId)).as(what).isEqualTo(1);
                assertThat(charge.path("captures").asInt()).as(what).isEqualTo(1);
                assertThat(charge.path("status").asText()).as(what).isIn("capturing", "succeeded");
                assertThat(queries.count("select count(*) from payments where id = $1 and cancel_requested_at is null",
                        paymentId)).isEqualTo(1);
            }
        }
    }
}
