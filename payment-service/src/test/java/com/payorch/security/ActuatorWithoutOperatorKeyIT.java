package com.payorch.security;

import com.payorch.testsupport.ApiTest;
import org.junit.jupiter.api.Test;

/** Without `payments.operator.api-key` the API port serves no metrics at all (404), to anyone; health stays open. */
class ActuatorWithoutOperatorKeyIT extends ApiTest {

    @Test
    void metricsAreNotServedOnTheApiPort() {
        client.get().uri("/actuator/prometheus").exchange()
                .expectStatus().isNotFound()
                .expectHeader().contentType("application/problem+json")
                .expectBody().jsonPath("$.code").isEqualTo("not_found");
        client.get().uri("/actuator/prometheus").header("Authorization", "Bearer " + DEMO_KEY).exchange()
                .expectStatus().isNotFound()
                .expectBody().jsonPath("$.code").isEqualTo("not_found");
    }

    @Test
    void healthIsOpen() {
        client.get().uri("/actuator/health").exchange().expectStatus().isOk();
    }
}
