package com.payorch.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.testsupport.ApiTest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.web.reactive.server.EntityExchangeResult;

/**
 * With {@code payments.http.max-in-flight=2}, two creates whose bodies have not arrived yet hold both places: a third
 * request is answered at once with 503 `service_unavailable` and `Retry-After: 1`, touches nothing (its
 * Idempotency-Key creates the payment once a place is free), and health still answers; the two held creates finish
 * normally once their bodies come.
 */
@TestPropertySource(properties = "payments.http.max-in-flight=2")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class InFlightLimitIT extends ApiTest {

    @Test
    void aRequestOverTheLimitIs503AtOnceAndChangesNothing() throws Exception {
        List<Socket> held = new ArrayList<>();
        List<String> heldBodies = new ArrayList<>();
        try {
            for (int i = 0; i < 2; i++) {
                String body = paymentBody(unique("held"));
                Socket socket = new Socket("localhost", port);
                socket.setSoTimeout(20_000);
                send(socket, "POST /v1/payments HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + DEMO_KEY
                        + "\r\nIdempotency-Key: " + unique("held-key") + "\r\nContent-Type: application/json\r\n"
                        + "Content-Length: " + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n");
                held.add(socket);
                heldBodies.add(body);
            }
            String key = unique("key");
            String booking = unique("bk");
            // Both held requests are in once a read is refused too.
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> client.get().uri("/v1/payments?limit=1")
                    .header("Authorization", "Bearer " + DEMO_KEY).exchange().returnResult(byte[].class)
                    .getStatus().value() == 503);
            EntityExchangeResult<byte[]> refused = postPayment(DEMO_KEY, key, paymentBody(booking)).exchange()
                    .expectStatus().isEqualTo(503)
                    .expectHeader().contentType("application/problem+json")
                    .expectHeader().valueEquals("Retry-After", "1")
                    .expectBody().jsonPath("$.code").isEqualTo("service_unavailable")
                    .returnResult();
            assertThat(refused.getResponseBody()).isNotEmpty();
            assertThat(count("select count(*) from idempotency_keys where idempotency_key = $1", key)).isZero();
            assertThat(count("select count(*) from payments where booking_id = $1", booking)).isZero();
            client.get().uri("/actuator/health").exchange().expectStatus().isOk();

            for (int i = 0; i < 2; i++) {
                send(held.get(i), heldBodies.get(i));
                assertThat(statusOf(held.get(i))).isEqualTo(201);
            }
            postPayment(DEMO_KEY, key, paymentBody(booking)).exchange().expectStatus().isCreated();
            assertThat(count("select count(*) from payments where booking_id = $1", booking)).isEqualTo(1);
        } finally {
            for (Socket socket : held) {
                socket.close();
            }
        }
    }

    private static void send(Socket socket, String text) throws IOException {
        socket.getOutputStream().write(text.getBytes(StandardCharsets.UTF_8));
        socket.getOutputStream().flush();
    }

    private static int statusOf(Socket socket) throws IOException {
        InputStream in = socket.getInputStream();
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) >= 0 && b != '\n') {
            line.write(b);
        }
        return Integer.parseInt(line.toString(StandardCharsets.ISO_8859_1).substring(9, 12));
    }
}
