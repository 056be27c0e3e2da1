package com.payorch.console;

import com.payorch.gateway.CaptureMethod;
import com.payorch.idempotency.IdempotentRequest;
import com.payorch.idempotency.RequestFingerprint;
import com.payorch.idempotency.StoredResponse;
import com.payorch.payments.IdempotentPaymentFlow;
import com.payorch.payments.NewPayment;
import com.payorch.testsupport.ApiTest;
import com.payorch.testsupport.SignedWebhooks;
import com.payorch.testsupport.TestQueries;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.awaitility.Awaitility;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Holds for the console's tests: a manual-capture payment (12000 JPY) created through the payment flow and
 * submitted to the sandbox, then authorised and captured by the sandbox's signed webhooks, sent by the test once the
 * sandbox's charge is in that state, as the tests of the service do ({@code payments.gateway.sandbox.webhooks=off} in
 * {@link ApiTest}).
 */
record ManualPayments(IdempotentPaymentFlow flow, WebTestClient client, DatabaseClient db) {

    /** A manual-capture payment of merchant demo, AUTHORIZED. */
    String authorized() {
        return authorized("demo", "pm_card_ok");
    }

    String authorized(String merchantId) {
        return authorized(merchantId, "pm_card_ok");
    }

    /** With {@code pm_card_capture_fails} the sandbox fails its captures. */
    String authorized(String merchantId, String paymentMethod) {
        String paymentId = created(merchantId, paymentMethod);
        // as the sandbox would: its webhook only once it has authorised the charge (after its webhook-delay)
        awaitCharge(paymentId, "authorized");
        signedWebhook("payment.authorized", paymentId, "");
        Awaitility.await().atMost(Duration.ofSeconds(10))
                .until(() -> new TestQueries(db).statusOf(paymentId).equals("AUTHORIZED"));
        return paymentId;
    }

    /** The sandbox's word, once it settled the capture, that it took {@code amount} (of the 12000 authorised). */
    void captured(String paymentId, long amount) {
        awaitCharge(paymentId, "succeeded");
        signedWebhook("payment.captured", paymentId, ", \"amountCaptured\": " + amount);
    }

    /** The sandbox's word, once it settled the capture, that the capture failed. */
    void captureFailed(String paymentId) {
        awaitCharge(paymentId, "capture_failed");
        signedWebhook("payment.capture_failed", paymentId, ", \"failureReason\": \"capture_declined\"");
    }

    private void awaitCharge(String paymentId, String status) {
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> new TestQueries(db).count(
                "select count(*) from sandbox_charges where payment_id = $1 and status = $2", paymentId, status) == 1);
    }

    private String created(String merchantId, String paymentMethod) {
        String key = "key_" + UUID.randomUUID();
        String bookingId = "bk_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
        IdempotentRequest request = new IdempotentRequest(merchantId, key, "POST", "/v1/payments",
                RequestFingerprint.of("POST", "/v1/payments", bookingId.getBytes(StandardCharsets.UTF_8)));
        NewPayment payment = new NewPayment(bookingId, 12000, "JPY", paymentMethod, "guest@example.com",
                "Room 101, held", Map.of(), CaptureMethod.MANUAL);
        StoredResponse created = flow.create(request, payment,
                        found -> new StoredResponse(201, Map.of(),
                                found.payment().id().getBytes(StandardCharsets.UTF_8), false))
                .block(Duration.ofSeconds(30));
        return new String(created.body(), StandardCharsets.UTF_8);
    }

    private void signedWebhook(String type, String paymentId, String moreData) {
        String charge = db.sql("select id from sandbox_charges where payment_id = $1 order by attempt desc limit 1")
                .bind(0, paymentId).map(row -> row.get(0, String.class)).one().defaultIfEmpty("ch_none")
                .block(Duration.ofSeconds(10));
        String body = ("{\"type\": \"%s\", \"data\": {\"paymentId\": \"%s\", \"chargeId\": \"%s\", \"amount\": 12000,"
                + " \"currency\": \"JPY\"%s}}").formatted(type, paymentId, charge, moreData);
        String webhookId = "msg_" + UUID.randomUUID();
        client.post().uri("/v1/webhooks/sandbox")
                .headers(headers -> headers.addAll(SignedWebhooks.sign(ApiTest.WEBHOOK_SECRET, webhookId,
                        Instant.now(), body)))
                .header("Content-Type", "application/json")
                .bodyValue(body)
                .exchange().expectStatus().isOk();
    }
}
