package com.payorch.payments;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.payorch.testsupport.ApiTest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** `metadata` on payments: stored, returned, fingerprinted with the body, and copied into the payment's events. */
class MetadataIT extends ApiTest {

    private static String body(String bookingId, String metadataJson) {
        return """
                {"bookingId": "%s", "amount": 12000, "currency": "JPY", "paymentMethod": "pm_card_ok",
                 "customerEmail": "guest@example.com", "metadata": %s}""".formatted(bookingId, metadataJson);
    }

    @Test
    void isStoredReturnedAndCopiedIntoEveryEventOfThePayment() {
        String booking = unique("bk");
        Map<?, ?> created = postPayment(DEMO_KEY, unique("key"),
                body(booking, "{\"orderId\": \"ord-42\", \"channel\": \"web\"}")).exchange()
                .expectStatus().isCreated()
                .expectBody(Map.class).returnResult().getResponseBody();
        assertThat(created.get("metadata")).isEqualTo(Map.of("orderId", "ord-42", "channel", "web"));
        String paymentId = (String) created.get("id");

        client.get().uri("/v1/payments/" + paymentId).header("Authorization", "Bearer " + DEMO_KEY).exchange()
                .expectStatus().isOk()
                .expectBody()
                .jsonPath("$.metadata.orderId").isEqualTo("ord-42")
                .jsonPath("$.metadata.channel").isEqualTo("web");
        client.get().uri("/v1/payments?bookingId=" + booking).header("Authorization", "Bearer " + DEMO_KEY).exchange()
                .expectStatus().isOk()
                .expectBody().jsonPath("$.data[0].metadata.orderId").isEqualTo("ord-42");

        // payment.created and payment.processing now; COMPLETED and booking.activated after the success webhook, and
        // booking.confirmation_sent once the relay has handed the confirmation over (to the log: no mail server)
        sendWebhook(unique("msg"), webhookBody("payment.succeeded", paymentId, 12000, "JPY"))
                .expectStatus().isOk();
        await().atMost(Duration.ofSeconds(30)).until(() -> types(paymentId).contains("booking.confirmation_sent"));
        Map<?, ?> events = client.get().uri("/v1/events?paymentId=" + paymentId)
                .header("Authorization", "Bearer " + DEMO_KEY).exchange()
                .expectStatus().isOk()
                .expectBody(Map.class).returnResult().getResponseBody();
        List<?> data = (List<?>) events.get("data");
        assertThat(data).extracting(e -> (Object) ((Map<?, ?>) e).get("type"))
                .containsExactlyInAnyOrder("payment.created", "payment.processing", "payment.completed",
                        "booking.activated", "booking.confirmation_sent");
        assertThat(data).allSatisfy(event -> assertThat(((Map<?, ?>) ((Map<?, ?>) event).get("data")).get("metadata"))
                .as("data.metadata of %s", ((Map<?, ?>) event).get("type"))
                .isEqualTo(Map.of("orderId", "ord-42", "channel", "web")));
    }

    private List<Object> types(String paymentId) {
        Map<?, ?> events = client.get().uri("/v1/events?paymentId=" + paymentId)
                .header("Authorization", "Bearer " + DEMO_KEY).exchange()
                .expectStatus().isOk()
                .expectBody(Map.class).returnResult().getResponseBody();
        return ((List<?>) events.get("data")).stream().map(e -> (Object) ((Map<?, ?>) e).get("type")).toList();
    }

    @Test
    void isAnEmptyObjectWhenNoneWasGiven() {
        String booking = unique("bk");
        String paymentId = createPayment(booking, "pm_card_ok");
        client.get().uri("/v1/payments/" + paymentId).header("Authorization", "Bearer " + DEMO_KEY).exchange()
                .expectStatus().isOk()
                .expectBody().jsonPath("$.metadata").isMap().jsonPath("$.metadata.length()").isEqualTo(0);
        client.get().uri("/v1/events?paymentId=" + paymentId).header("Authorization", "Bearer " + DEMO_KEY).exchange()
                .expectStatus().isOk()
                .expectBody().jsonPath("$.data[0].data.metadata").isMap()
                .jsonPath("$.data[0].data.metadata.length()").isEqualTo(0);
    }

    @Test
    void acceptsTheLimitsExactly() {
        StringBuilder json = new StringBuilder("{");
        for (int i = 0; i < 20; i++) {
            String key = ("k" + i + "_.-" + "x".repeat(40)).substring(0, 40);
            json.append(i == 0 ? "" : ", ").append('"').append(key).append("\": \"").append("é".repeat(500)).append('"');
        }
        json.append('}');
        Map<?, ?> created = postPayment(DEMO_KEY, unique("key"), body(unique("bk"), json.toString())).exchange()
                .expectStatus().isCreated()
                .expectBody(Map.class).returnResult().getResponseBody();
        Map<?, ?> metadata = (Map<?, ?>) created.get("metadata");
        assertThat(metadata).hasSize(20);
        assertThat(metadata.values()).allSatisfy(v -> assertThat((String) v).hasSize(500));
    }

    @Test
    void isPartOfTheIdempotencyFingerprint() {
        String booking = unique("bk");
        String key = unique("key");
        String first = body(booking, "{\"a\": \"1\", \"b\": \"2\"}");
        Map<?, ?> created = postPayment(DEMO_KEY, key, first).exchange()
                .expectStatus().isCreated()
                .expectBody(Map.class).returnResult().getResponseBody();

        // The same metadata, members in another order and other whitespace: the same request, replayed.
        postPayment(DEMO_KEY, key, body(booking, "{ \"b\":\"2\",\"a\":\"1\" }")).exchange()
                .expectStatus().isCreated()
                .expectHeader().valueEquals("Idempotent-Replayed", "true")
                .expectBody().jsonPath("$.id").isEqualTo(created.get("id"));

        // Other metadata with the same key: another request.
        postPayment(DEMO_KEY, key, body(booking, "{\"a\": \"1\", \"b\": \"3\"}")).exchange()
                .expectStatus().isEqualTo(422)
                .expectBody().jsonPath("$.code").isEqualTo("idempotency_key_reused");
        assertThat(count("select count(*) from payments where merchant_id = 'demo' and booking_id = $1", booking))
                .isEqualTo(1);
        assertThat(count("select count(*) from payments where id = $1 and metadata = '{\"a\": \"1\", \"b\": \"2\"}'::jsonb",
                created.get("id"))).isEqualTo(1);
    }
}
