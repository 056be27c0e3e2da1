package com.payorch.payments;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.statemachine.PaymentEvent;
import com.payorch.testsupport.ApiTest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpStatus;
import org.springframework.transaction.reactive.TransactionalOperator;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Flux;

class RetryApiIT extends ApiTest {

    @Autowired
    PaymentQueries payments;
    @Autowired
    PaymentStateChanges stateChanges;
    @Autowired
    TransactionalOperator transaction;

    /** The gateway reports a decline (until webhooks exist, through the same write path they will use). */
    private void declineAtGateway(String paymentId) {
        transaction.transactional(payments.find("demo", paymentId)
                        .flatMap(p -> stateChanges.apply(p, PaymentEvent.FAIL,
                                new TransitionOrigin(TransitionSource.WEBHOOK, "msg_test"), "card_declined", null)))
                .block(Duration.ofSeconds(10));
    }

    private String createProcessingPayment(String booking) {
        return postPayment(DEMO_KEY, unique("key"), paymentBody(booking)).exchange()
                .expectStatus().isCreated().expectBody().returnResult().getResponseHeaders().getLocation().toString()
                .substring("/v1/payments/".length());
    }

    @Test
    void aFailedPaymentIsRetriedAsANewGatewayAttempt() {
        String booking = unique("bk");
        String paymentId = createProcessingPayment(booking);
        declineAtGateway(paymentId);
        String retryKey = unique("key");

        client.post().uri("/v1/payments/" + paymentId + "/retry")
                .header("Authorization", "Bearer " + DEMO_KEY)
                .header("Idempotency-Key", retryKey)
                .header("If-Match", "\"3\"")
                .header("Content-Type", "application/json")
                .bodyValue("{}")
                .exchange()
                .expectStatus().isOk()
                .expectHeader().valueEquals("ETag", "\"5\"")
                .expectHeader().doesNotExist("Location")
                .expectBody()
                .jsonPath("$.status").isEqualTo("PROCESSING")
                .jsonPath("$.version").isEqualTo(5)
                .jsonPath("$.failureReason").isEmpty()
                .jsonPath("$.history.length()").isEqualTo(5)
                .jsonPath("$.history[2].to").isEqualTo("FAILED")
                .jsonPath("$.history[2].source").isEqualTo("webhook")
                .jsonPath("$.history[3].event").isEqualTo("RETRY")
                .jsonPath("$.history[3].to").isEqualTo("PENDING")
                .jsonPath("$.history[3].sourceId").isEqualTo(retryKey)
                .jsonPath("$.history[4].event").isEqualTo("SUBMIT");

        // Replaying the retry changes nothing more.
        client.post().uri("/v1/payments/" + paymentId + "/retry")
                .header("Authorization", "Bearer " + DEMO_KEY)
                .header("Idempotency-Key", retryKey)
                .exchange()
                .expectStatus().isOk()
                .expectHeader().valueEquals("Idempotent-Replayed", "true")
                .expectBody().jsonPath("$.version").isEqualTo(5);

        client.get().uri("/v1/sandbox/charges?paymentId=" + paymentId).header("Authorization", "Bearer " + DEMO_KEY)
                .exchange().expectStatus().isOk()
                .expectBody().jsonPath("$.data.length()").isEqualTo(2)
                .jsonPath("$.data[0].attempt").isEqualTo(1)
                .jsonPath("$.data[1].attempt").isEqualTo(2);
    }

    /**
     * Found by the fault campaign's workload: of two retries of one FAILED payment racing each other, the loser got
     * 409 concurrent_modification. The contract says a payment that is no longer FAILED answers invalid_transition,
     * and the loser's payment is no longer FAILED once it looks again.
     */
    @Test
    void racingRetriesOfOneFailedPaymentLeaveOneWinnerAndInvalidTransitionsForTheRest() {
        int payments = 12;
        int racers = 4;
        Map<String, Long> codes = new ConcurrentHashMap<>();
        List<String> ids = IntStream.range(0, payments).mapToObj(i -> {
            String id = createProcessingPayment(unique("bk"));
            declineAtGateway(id);
            return id;
        }).toList();

        Flux.fromIterable(ids)
                .flatMap(id -> Flux.range(0, racers).flatMap(i -> WebClient.create("http://localhost:" + port).post()
                        .uri("/v1/payments/" + id + "/retry")
                        .header("Authorization", "Bearer " + DEMO_KEY)
                        .header("Idempotency-Key", unique("key"))
                        .exchangeToMono(answer -> answer.bodyToMono(String.class).defaultIfEmpty("")
                                .map(body -> answer.statusCode().value() + " " + problemCode(body)))), payments * racers)
                .doOnNext(outcome -> codes.merge(outcome, 1L, Long::sum))
                .blockLast(Duration.ofSeconds(60));

        assertThat(codes).as("one retry wins per payment, every other one is refused as an invalid transition")
                .containsOnlyKeys("200 -", "409 invalid_transition")
                .containsEntry("200 -", (long) payments)
                .containsEntry("409 invalid_transition", (long) payments * (racers - 1));
    }

    private static String problemCode(String body) {
        var matcher = java.util.regex.Pattern.compile("\"code\"\\s*:\\s*\"([^\"]+)\"").matcher(body);
        return body.contains("\"type\"") && matcher.find() ? matcher.group(1) : "-";
    }

    @Test
    void aStaleIfMatchIsRefusedAndStoresNothing() {
        String paymentId = createProcessingPayment(unique("bk"));
        declineAtGateway(paymentId);
        String retryKey = unique("key");

        client.post().uri("/v1/payments/" + paymentId + "/retry")
                .header("Authorization", "Bearer " + DEMO_KEY)
                .header("Idempotency-Key", retryKey)
                .header("If-Match", "\"2\"")
                .exchange()
                .expectStatus().isEqualTo(HttpStatus.PRECONDITION_FAILED)
                .expectHeader().contentType("application/problem+json")
                .expectBody().jsonPath("$.code").isEqualTo("version_mismatch");

        assertThat(count("select count(*) from idempotency_keys where idempotency_key = $1", retryKey)).isZero();
        assertThat(count("select version from payments where id = $1", paymentId)).isEqualTo(3);
    }

    @Test
    void theBookingGuardAppliesToARetry() {
        String booking = unique("bk");
        String failed = createProcessingPayment(booking);
        declineAtGateway(failed);
        createProcessingPayment(booking); // a new payment for the booking is allowed once the first one FAILED

        client.post().uri("/v1/payments/" + failed + "/retry")
                .header("Authorization", "Bearer " + DEMO_KEY)
                .header("Idempotency-Key", unique("key"))
                .exchange()
                .expectStatus().isEqualTo(HttpStatus.CONFLICT)
                .expectBody().jsonPath("$.code").isEqualTo("booking_payment_in_progress");
        assertThat(count("select count(*) from payments where booking_id = $1 and status = 'FAILED'", booking))
                .isEqualTo(1);
    }

    @Test
    void retryTakesOnlyAnEmptyBody() {
        String paymentId = createProcessingPayment(unique("bk"));
        declineAtGateway(paymentId);
        client.post().uri("/v1/payments/" + paymentId + "/retry")
                .header("Authorization", "Bearer " + DEMO_KEY)
                .header("Idempotency-Key", unique("key"))
                .header("Content-Type", "application/json")
                .bodyValue("{\"amount\": 1}")
                .exchange()
                .expectStatus().isBadRequest()
                .expectBody().jsonPath("$.code").isEqualTo("invalid_request")
                .jsonPath("$.detail").value(d -> assertThat((String) d).contains("amount"));
    }

    private org.springframework.test.web.reactive.server.WebTestClient.ResponseSpec retryIfMatch(String paymentId,
                                                                                                 String key,
                                                                                                 String... ifMatch) {
        return client.post().uri("/v1/payments/" + paymentId + "/retry")
                .header("Authorization", "Bearer " + DEMO_KEY)
                .header("Idempotency-Key", key)
                .headers(h -> h.addAll("If-Match", java.util.List.of(ifMatch)))
                .exchange();
    }

    @Test
    void ifMatchComparesStronglyAndAWeakTagNeverMatches() {
        String paymentId = createProcessingPayment(unique("bk"));
        declineAtGateway(paymentId); // version 3
        for (String[] refused : new String[][] {{"W/\"3\""}, {"W/\"3\", \"2\""}, {"\"2\"", "W/\"3\""}, {"3"}, {"\"03\""}}) {
            String key = unique("key");
            retryIfMatch(paymentId, key, refused)
                    .expectStatus().isEqualTo(HttpStatus.PRECONDITION_FAILED)
                    .expectBody().jsonPath("$.code").isEqualTo("version_mismatch");
            assertThat(count("select count(*) from idempotency_keys where idempotency_key = $1", key)).isZero();
        }
        assertThat(count("select version from payments where id = $1", paymentId)).isEqualTo(3);
    }

    @Test
    void ifMatchTakesSeveralValuesInOneHeader() {
        String paymentId = createProcessingPayment(unique("bk"));
        declineAtGateway(paymentId);
        retryIfMatch(paymentId, unique("key"), "\"1\", W/\"2\",\"3\"")
                .expectStatus().isOk().expectBody().jsonPath("$.status").isEqualTo("PROCESSING");
    }

    @Test
    void ifMatchTakesSeveralHeaders() {
        String paymentId = createProcessingPayment(unique("bk"));
        declineAtGateway(paymentId);
        retryIfMatch(paymentId, unique("key"), "\"2\"", "\"3\"")
                .expectStatus().isOk().expectBody().jsonPath("$.status").isEqualTo("PROCESSING");
    }

    @Test
    void ifMatchStarMatchesAnExistingPayment() {
        String paymentId = createProcessingPayment(unique("bk"));
        declineAtGateway(paymentId);
        retryIfMatch(paymentId, unique("key"), "*")
                .expectStatus().isOk().expectBody().jsonPath("$.status").isEqualTo("PROCESSING");
        retryIfMatch("pay_doesnotexist0000000000", unique("key"), "*")
                .expectStatus().isNotFound().expectBody().jsonPath("$.code").isEqualTo("not_found");
    }
}
