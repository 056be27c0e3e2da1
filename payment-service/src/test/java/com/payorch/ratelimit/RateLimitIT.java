package com.payorch.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.testsupport.ApiTest;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.web.reactive.server.EntityExchangeResult;

/**
 * Per API key, a burst of 3 then one request every 5 s: the 4th request of a burst is refused with 429
 * `rate_limited` and `Retry-After`, before it touches anything, so its Idempotency-Key serves it once a token has
 * grown; another merchant's key is not affected.
 */
@TestPropertySource(properties = {"payments.rate-limit.requests-per-second=0.2", "payments.rate-limit.burst=3",
        "payments.merchants.limited.api-key=" + RateLimitIT.LIMITED_KEY})
class RateLimitIT extends ApiTest {

    static final String LIMITED_KEY = "sk_test_limited";

    @Test
    void theRequestOverTheBurstIs429AndItsKeyIsStillFree() {
        for (int i = 0; i < 3; i++) {
            postPayment(LIMITED_KEY, unique("key"), paymentBody(unique("bk"))).exchange().expectStatus().isCreated();
        }
        String key = unique("key");
        String booking = unique("bk");
        EntityExchangeResult<byte[]> refused = postPayment(LIMITED_KEY, key, paymentBody(booking)).exchange()
                .expectStatus().isEqualTo(429)
                .expectHeader().contentType("application/problem+json")
                .expectBody().jsonPath("$.code").isEqualTo("rate_limited")
                .returnResult();
        long retryAfter = Long.parseLong(refused.getResponseHeaders().getFirst("Retry-After"));
        assertThat(retryAfter).isBetween(1L, 5L);
        assertThat(count("select count(*) from idempotency_keys where merchant_id = 'limited' and idempotency_key = $1",
                key)).isZero();
        assertThat(count("select count(*) from payments where merchant_id = 'limited' and booking_id = $1", booking))
                .isZero();

        // Another key is not limited by this one.
        client.get().uri("/v1/payments?bookingId=" + booking).header("Authorization", "Bearer " + DEMO_KEY)
                .exchange().expectStatus().isOk();

        // Once a token has grown, the same Idempotency-Key creates the payment: the refusal consumed nothing.
        Awaitility.await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(500)).until(() -> {
            int status = postPayment(LIMITED_KEY, key, paymentBody(booking)).exchange().returnResult(byte[].class)
                    .getStatus().value();
            assertThat(status).isIn(201, 429);
            return status == 201;
        });
        assertThat(count("select count(*) from payments where merchant_id = 'limited' and booking_id = $1", booking))
                .isEqualTo(1);
    }
}
