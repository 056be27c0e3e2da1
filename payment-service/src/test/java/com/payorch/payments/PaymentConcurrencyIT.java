package com.payorch.payments;

import static org.assertj.core.api.Assertions.assertThat;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import com.payorch.testsupport.ApiTest;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Races many parallel requests over real HTTP, then counts rows in the database. */
class PaymentConcurrencyIT extends ApiTest {

    record Answer(int status, HttpHeaders headers, byte[] body) {
        String code() {
            try {
                JsonNode json = new ObjectMapper().readTree(body);
                return json.path("code").asText(null);
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }
    }

    private List<Answer> race(int parallel, java.util.function.IntFunction<String> keyOf,
                              java.util.function.IntFunction<String> bodyOf) {
        WebClient web = WebClient.builder().baseUrl("http://localhost:" + port).build();
        return Flux.range(0, parallel)
                .flatMap(i -> web.post().uri("/v1/payments")
                        .header("Authorization", "Bearer " + DEMO_KEY)
                        .header("Idempotency-Key", keyOf.apply(i))
                        .header("Content-Type", "application/json")
                        .bodyValue(bodyOf.apply(i))
                        .exchangeToMono(response -> response.bodyToMono(byte[].class)
                                .defaultIfEmpty(new byte[0])
                                .map(body -> new Answer(response.statusCode().value(),
                                        response.headers().asHttpHeaders(), body))), parallel)
                .collectList()
                .block(Duration.ofSeconds(60));
    }

    @Test
    void fiftyParallelRequestsWithOneKeyMakeOnePaymentAndOneCharge() {
        String booking = unique("bk");
        String key = unique("key");
        String body = paymentBody(booking);

        List<Answer> answers = race(50, i -> key, i -> body);

        assertThat(count("select count(*) from payments where booking_id = $1", booking)).isEqualTo(1);
        assertThat(count("select count(*) from sandbox_charges c join payments p on p.id = c.payment_id"
                + " where p.booking_id = $1", booking)).isEqualTo(1);
        assertThat(count("select count(*) from payment_transitions t join payments p on p.id = t.payment_id"
                + " where p.booking_id = $1", booking)).isEqualTo(2);

        List<Answer> created = answers.stream().filter(a -> a.status() == 201).toList();
        List<Answer> inProgress = answers.stream().filter(a -> a.status() == 409).toList();
        assertThat(created.size() + inProgress.size()).as("every answer is 201 or 409").isEqualTo(50);
        assertThat(created).isNotEmpty();
        assertThat(created.stream().filter(a -> a.headers().getFirst("Idempotent-Replayed") == null)).hasSize(1);
        byte[] stored = storedBody(key);
        assertThat(created).allSatisfy(a -> {
            assertThat(a.body()).isEqualTo(stored);
            assertThat(a.headers().getFirst("ETag")).isEqualTo("\"2\"");
        });
        assertThat(inProgress).allSatisfy(a -> {
            assertThat(a.code()).isEqualTo("idempotency_request_in_progress");
            assertThat(Integer.parseInt(a.headers().getFirst("Retry-After"))).isBetween(1, 30);
        });
    }

    @Test
    void twentyParallelRequestsWithDifferentKeysForOneBookingMakeOnePayment() {
        String booking = unique("bk");
        String body = paymentBody(booking);
        String keyPrefix = unique("key");

        List<Answer> answers = race(20, i -> keyPrefix + "_" + i, i -> body);

        assertThat(count("select count(*) from payments where booking_id = $1", booking)).isEqualTo(1);
        assertThat(count("select count(*) from sandbox_charges c join payments p on p.id = c.payment_id"
                + " where p.booking_id = $1", booking)).isEqualTo(1);
        assertThat(answers.stream().filter(a -> a.status() == 201)).hasSize(1);
        List<Answer> refused = answers.stream().filter(a -> a.status() != 201).toList();
        assertThat(refused).hasSize(19).allSatisfy(a -> {
            assertThat(a.status()).isEqualTo(409);
            assertThat(a.code()).isEqualTo("booking_payment_in_progress");
        });
        // Refusals are not stored: only the winner's key remains.
        assertThat(count("select count(*) from idempotency_keys where idempotency_key like $1", keyPrefix + "_%"))
                .isEqualTo(1);
    }

    private byte[] storedBody(String key) {
        return db.sql("select response_body from idempotency_keys where merchant_id = 'demo' and idempotency_key = $1")
                .bind(0, key)
                .map(row -> {
                    java.nio.ByteBuffer buffer = row.get(0, java.nio.ByteBuffer.class);
                    byte[] bytes = new byte[buffer.remaining()];
                    buffer.get(bytes);
                    return bytes;
                })
                .one()
                .block(Duration.ofSeconds(10));
    }
}
