package com.payorch.security;

import com.payorch.testsupport.ApiTest;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

/** A merchant configured by its key's SHA-256 digest authenticates with the key over HTTP, and only with it. */
@TestPropertySource(properties = "payments.merchants.hashed.api-key-sha256=" + ApiKeysIT.DIGEST)
class HashedApiKeyIT extends ApiTest {

    @Test
    void theKeyOpensTheApiAndTheDigestDoesNot() {
        String booking = unique("bk");
        postPayment(ApiKeysIT.KEY, unique("key"), paymentBody(booking)).exchange().expectStatus().isCreated();
        client.get().uri("/v1/payments?bookingId=" + booking).header("Authorization", "Bearer " + ApiKeysIT.KEY)
                .exchange().expectStatus().isOk().expectBody().jsonPath("$.data.length()").isEqualTo(1);
        // The merchant is "hashed", not "demo": the demo merchant does not see it.
        client.get().uri("/v1/payments?bookingId=" + booking).header("Authorization", "Bearer " + DEMO_KEY)
                .exchange().expectStatus().isOk().expectBody().jsonPath("$.data.length()").isEqualTo(0);
        client.get().uri("/v1/payments?bookingId=" + booking).header("Authorization", "Bearer " + ApiKeysIT.DIGEST)
                .exchange().expectStatus().isUnauthorized().expectBody().jsonPath("$.code").isEqualTo("unauthenticated");
    }
}
