package com.payorch.refunds;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.testsupport.ApiTest;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** What the refund API tests share: a COMPLETED payment, refund requests, reads and the sandbox's refund webhooks. */
abstract class RefundApiTest extends ApiTest {

    protected static final JsonMapper JSON = new JsonMapper();
    protected static final Duration WAIT = Duration.ofSeconds(30);

    /** A payment of JPY 12000 paid with {@code token}, COMPLETED by its succeeded webhook. */
    protected String completedPayment(String bookingId, String token) {
        String paymentId = createPayment(bookingId, token);
        sendWebhook(unique("msg"), webhookBody("payment.succeeded", paymentId, 12000, "JPY")).expectStatus().isOk();
        assertThat(statusOf(paymentId)).isEqualTo("COMPLETED");
        return paymentId;
    }

    protected WebTestClient.ResponseSpec refund(String paymentId, String key, @Nullable String body) {
        WebTestClient.RequestBodySpec spec = client.post().uri("/v1/payments/" + paymentId + "/refunds")
                .header("Authorization", "Bearer " + DEMO_KEY)
                .header("Idempotency-Key", key)
                .header("Content-Type", "application/json");
        return (body == null ? spec : spec.bodyValue(body)).exchange();
    }

    protected JsonNode json(WebTestClient.ResponseSpec response, int status) {
        byte[] body = response.expectStatus().isEqualTo(status).expectBody().returnResult().getResponseBody();
        return JSON.readTree(body);
    }

    protected JsonNode get(String uri) {
        return json(client.get().uri(uri).header("Authorization", "Bearer " + DEMO_KEY).exchange(), 200);
    }

    protected String refundStatus(String refundId) {
        return get("/v1/refunds/" + refundId).path("status").asText();
    }

    protected long amountRefunded(String paymentId) {
        return get("/v1/payments/" + paymentId).path("amountRefunded").asLong();
    }

    /** The sandbox's signed `refund.succeeded` / `refund.failed` webhook about {@code refundId}. */
    protected WebTestClient.ResponseSpec refundWebhook(String webhookId, String type, String refundId,
                                                       String paymentId, long amount) {
        String failure = type.equals("refund.failed") ? ", \"failureReason\": \"expired_or_canceled_card\"" : "";
        String body = ("{\"type\": \"%s\", \"data\": {\"refundId\": \"%s\", \"paymentId\": \"%s\", \"chargeId\": \"%s\","
                + " \"amount\": %d, \"currency\": \"JPY\"%s}}").formatted(type, refundId, paymentId,
                latestChargeOf(paymentId), amount, failure);
        return sendWebhook(webhookId, body);
    }

    protected @Nullable String attentionOf(String refundId) {
        return db.sql("select attention_reason from refunds where id = $1").bind(0, refundId)
                .map(row -> java.util.Optional.ofNullable(row.get(0, String.class)))
                .one().block(Duration.ofSeconds(10)).orElse(null);
    }
}
