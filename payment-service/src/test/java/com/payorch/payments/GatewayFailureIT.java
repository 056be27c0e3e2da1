package com.payorch.payments;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.payorch.testsupport.ApiTest;
import com.payorch.testsupport.SandboxFaults;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpStatus;
import org.springframework.test.web.reactive.server.WebTestClient;
import reactor.core.publisher.Sinks;

class GatewayFailureIT extends ApiTest {

    @Autowired
    SandboxFaults faults;

    @Test
    void aLostGatewayResponseIsResumedByTheClientsRetryWithoutASecondCharge() {
        String booking = unique("bk");
        String key = unique("key");
        faults.loseNextResponse();

        postPayment(DEMO_KEY, key, paymentBody(booking)).exchange()
                .expectStatus().isEqualTo(HttpStatus.BAD_GATEWAY)
                .expectHeader().contentType("application/problem+json")
                .expectBody().jsonPath("$.code").isEqualTo("gateway_error");
        assertThat(count("select count(*) from sandbox_charges c join payments p on p.id = c.payment_id"
                + " where p.booking_id = $1", booking)).isEqualTo(1);
        assertThat(count("select count(*) from idempotency_keys where idempotency_key = $1"
                + " and recovery_point = 'PAYMENT_CREATED' and locked_by is null", key)).isEqualTo(1);

        postPayment(DEMO_KEY, key, paymentBody(booking)).exchange()
                .expectStatus().isCreated()
                .expectHeader().doesNotExist("Idempotent-Replayed")
                .expectBody().jsonPath("$.status").isEqualTo("PROCESSING").jsonPath("$.version").isEqualTo(2);

        assertThat(count("select count(*) from payments where booking_id = $1", booking)).isEqualTo(1);
        assertThat(count("select count(*) from sandbox_charges c join payments p on p.id = c.payment_id"
                + " where p.booking_id = $1", booking)).isEqualTo(1);
        assertThat(count("select count(*) from idempotency_keys where idempotency_key = $1"
                + " and recovery_point = 'FINISHED'", key)).isEqualTo(1);
        postPayment(DEMO_KEY, key, paymentBody(booking)).exchange()
                .expectStatus().isCreated()
                .expectHeader().valueEquals("Idempotent-Replayed", "true");
    }

    @Test
    void aClientThatDisconnectsDoesNotCancelTheWorkAndItsRetryReplays() {
        String booking = unique("bk");
        String key = unique("key");
        Sinks.Empty<Void> gate = faults.holdSubmits();
        try {
            WebTestClient impatient = client.mutate().responseTimeout(Duration.ofMillis(300)).build();
            // The client gives up and closes its connection while the gateway call is held.
            assertThatThrownBy(() -> impatient.post().uri("/v1/payments")
                    .header("Authorization", "Bearer " + DEMO_KEY)
                    .header("Idempotency-Key", key)
                    .header("Content-Type", "application/json")
                    .bodyValue(paymentBody(booking))
                    .exchange())
                    .hasMessageContaining("Timeout");
        } finally {
            gate.tryEmitEmpty();
        }

        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> count(
                "select count(*) from idempotency_keys where idempotency_key = $1 and recovery_point = 'FINISHED'",
                key) == 1);
        postPayment(DEMO_KEY, key, paymentBody(booking)).exchange()
                .expectStatus().isCreated()
                .expectHeader().valueEquals("Idempotent-Replayed", "true")
                .expectBody().jsonPath("$.status").isEqualTo("PROCESSING");
        assertThat(count("select count(*) from sandbox_charges c join payments p on p.id = c.payment_id"
                + " where p.booking_id = $1", booking)).isEqualTo(1);
    }
}
