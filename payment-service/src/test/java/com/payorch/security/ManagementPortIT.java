package com.payorch.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.testsupport.ApiTest;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * With `management.server.port` the actuator moves to that port, where metrics are served without a key (the port
 * is protected by the network); the API port then has no metrics at all, whatever key is sent.
 */
@TestPropertySource(properties = {"management.server.port=0", "payments.operator.api-key=op_test_mgmt"})
class ManagementPortIT extends ApiTest {

    @LocalManagementPort
    int managementPort;

    @Test
    void metricsAreServedOnlyOnTheManagementPort() {
        assertThat(managementPort).isNotEqualTo(port);
        WebTestClient management = WebTestClient.bindToServer().baseUrl("http://localhost:" + managementPort).build();
        management.get().uri("/actuator/prometheus").exchange()
                .expectStatus().isOk()
                .expectBody(String.class).value(body -> assertThat(body).contains("jvm_memory_used_bytes"));
        management.get().uri("/actuator/health").exchange().expectStatus().isOk();

        client.get().uri("/actuator/prometheus").exchange().expectStatus().isNotFound();
        client.get().uri("/actuator/prometheus").header("Authorization", "Bearer op_test_mgmt").exchange()
                .expectStatus().isNotFound()
                .expectBody().jsonPath("$.code").isEqualTo("not_found");
    }
}
