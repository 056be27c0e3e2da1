package com.payorch.security;

import com.payorch.testsupport.ApiTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * On the API port only health is open; metrics need the operator's key (`payments.operator.api-key`), which a
 * merchant's API key is not: 401 `unauthenticated` with a problem body otherwise.
 */
@TestPropertySource(properties = "payments.operator.api-key=" + ActuatorAccessIT.OPERATOR_KEY)
class ActuatorAccessIT extends ApiTest {

    static final String OPERATOR_KEY = "op_test_0perat0r_key";

    @ParameterizedTest
    @ValueSource(strings = {"/actuator/health", "/actuator/health/liveness", "/actuator/health/readiness"})
    void healthIsOpen(String path) {
        client.get().uri(path).exchange()
                .expectStatus().isOk()
                .expectBody().jsonPath("$.status").isEqualTo("UP");
    }

    @Test
    void metricsAnswerTheOperatorKey() {
        client.get().uri("/actuator/prometheus").header("Authorization", "Bearer " + OPERATOR_KEY).exchange()
                .expectStatus().isOk()
                .expectBody(String.class).value(body -> org.assertj.core.api.Assertions.assertThat(body)
                        .contains("jvm_memory_used_bytes"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "Bearer ", "Bearer " + DEMO_KEY, "Bearer op_test_wrong", "Basic b3A6b3A=",
            "Bearer " + OPERATOR_KEY + "x"})
    void metricsRefuseAnythingElse(String authorization) {
        WebTestClient.RequestHeadersSpec<?> request = client.get().uri("/actuator/prometheus");
        if (!authorization.isEmpty()) {
            request = request.header("Authorization", authorization);
        }
        request.exchange()
                .expectStatus().isUnauthorized()
                .expectHeader().contentType("application/problem+json")
                .expectHeader().valueEquals("WWW-Authenticate", "Bearer")
                .expectBody().jsonPath("$.code").isEqualTo("unauthenticated");
    }

    @ParameterizedTest
    @ValueSource(strings = {"/actuator", "/actuator/metrics", "/actuator/env", "/actuator/prometheus/"})
    void theRestOfTheActuatorIsGuardedToo(String path) {
        client.get().uri(path).header("Authorization", "Bearer " + DEMO_KEY).exchange()
                .expectStatus().isUnauthorized()
                .expectBody().jsonPath("$.code").isEqualTo("unauthenticated");
    }
}
