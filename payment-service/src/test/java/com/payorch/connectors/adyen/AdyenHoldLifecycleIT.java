package com.payorch.connectors.adyen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.payorch.fakes.FakeAdyen;
import com.payorch.gateway.CaptureMethod;
import com.payorch.idempotency.IdempotentRequest;
import com.payorch.idempotency.RequestFingerprint;
import com.payorch.idempotency.StoredResponse;
import com.payorch.payments.IdempotentPaymentFlow;
import com.payorch.payments.NewPayment;
import com.payorch.payments.PaymentResponse;
import com.payorch.testsupport.ApiTest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

/**
 * A hold at Adyen through the service (the HTTP API of holds is built elsewhere, so the idempotent flow is driven
 * directly): a manual payment AUTHORIZED by Adyen's answer, captured (CAPTURING, Adyen acknowledges) and COMPLETED
 * by the CAPTURE notification through the merchant's webhook endpoint; a capture the card scheme rejects back to
 * AUTHORIZED with its reason; a released hold CANCELLED by CANCELLATION.
 */
@TestPropertySource(properties = {
        "payments.merchants.adyenholds.api-key=sk_test_adyenholds",
        "payments.merchants.adyenholds.connectors.adyen.api-key=" + AdyenHoldLifecycleIT.API_KEY,
        "payments.merchants.adyenholds.connectors.adyen.merchant-account=" + AdyenHoldLifecycleIT.ACCOUNT,
        "payments.merchants.adyenholds.connectors.adyen.hmac-key=" + AdyenHoldLifecycleIT.HMAC_KEY,
        "payments.merchants.adyenholds.routing=adyen",
        "payments.connectors.adyen.read-timeout=PT5S",
        "payments.recovery.pending-after=PT1H",
        "payments.recovery.processing-after=PT1H",
        "spring.r2dbc.properties.schema=adyen_hold_tests",
        "spring.flyway.schemas=adyen_hold_tests",
        "spring.flyway.default-schema=adyen_hold_tests"})
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class AdyenHoldLifecycleIT extends ApiTest {

    static final String API_KEY = "AQE_FakeAdyenHoldFlowKeyDoNotLog_0023";
    static final String ACCOUNT = "PayorchHoldFlowECOM";
    static final String HMAC_KEY = "44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056";
    private static final String MERCHANT = "adyenholds";
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final PaymentResponse RENDERED = found -> new StoredResponse(200, Map.of(),
            found.payment().id().getBytes(StandardCharsets.UTF_8), false);

    private static final FakeAdyen ADYEN = new FakeAdyen().acceptKey(API_KEY);

    @Autowired
    IdempotentPaymentFlow flow;

    @DynamicPropertySource
    static void adyen(DynamicPropertyRegistry registry) {
        registry.add("payments.connectors.adyen.checkout-url", ADYEN::checkoutUrl);
    }

    @AfterAll
    static void stopAdyen() {
        ADYEN.close();
    }

    private static IdempotentRequest request(String path) {
        String key = unique("key");
        return new IdempotentRequest(MERCHANT, key, "POST", path,
                RequestFingerprint.of("POST", path, key.getBytes(StandardCharsets.UTF_8)));
    }

    /** A manual payment Adyen authorised; Adyen's queue emptied of its AUTHORISATION. */
    private String authorised(String token) {
        StoredResponse created = flow.create(request("/v1/payments"), new NewPayment(unique("bk"), 1000, "EUR", token,
                "guest@example.com", "a hold", Map.of(), CaptureMethod.MANUAL), RENDERED).block(WAIT);
        String paymentId = new String(created.body(), StandardCharsets.UTF_8);
        assertThat(statusOf(paymentId)).isEqualTo("AUTHORIZED");
        assertThat(ADYEN.paymentsFor(paymentId)).singleElement()
                .satisfies(made -> assertThat(made).containsEntry("state", "authorised"));
        ADYEN.takeNotifications();
        return paymentId;
    }

    private void capture(String paymentId, Long amount) {
        flow.capture(request("/v1/payments/" + paymentId + "/capture"), paymentId, amount, payment -> { }, RENDERED)
                .block(WAIT);
    }

    /** What Adyen has to send, through the merchant's endpoint. */
    private void deliverAdyensNotifications() {
        List<Map<String, Object>> items = ADYEN.takeNotifications();
        assertThat(items).isNotEmpty();
        client.post().uri("/v1/webhooks/adyen/" + MERCHANT).header("Content-Type", "application/json")
                .bodyValue(FakeAdyen.notification(ACCOUNT, HMAC_KEY, items)).exchange()
                .expectStatus().isOk().expectBody(String.class).isEqualTo("[accepted]");
    }

    private long amountCaptured(String paymentId) {
        return count("select amount_captured from payments where id = $1", paymentId);
    }

    @Test
    void aCaptureAdyenConfirmsCompletesThePayment() {
        String paymentId = authorised(unique("pm_stored_hold"));

        capture(paymentId, null);

        assertThat(statusOf(paymentId)).as("Adyen only acknowledged the capture").isEqualTo("CAPTURING");
        deliverAdyensNotifications();
        await().atMost(WAIT).untilAsserted(() -> assertThat(statusOf(paymentId)).isEqualTo("COMPLETED"));
        assertThat(amountCaptured(paymentId)).isEqualTo(1000);
    }

    @Test
    void aPartialCaptureAdyenConfirmsCompletesThePaymentWithTheCapturedAmount() {
        String paymentId = authorised(unique("pm_stored_partial"));

        capture(paymentId, 600L);
        deliverAdyensNotifications();

        await().atMost(WAIT).untilAsserted(() -> assertThat(statusOf(paymentId)).isEqualTo("COMPLETED"));
        assertThat(amountCaptured(paymentId)).isEqualTo(600);
        assertThat(ADYEN.capturedFor(paymentId)).isEqualTo(600);
    }

    @Test
    void aCaptureTheCardSchemeRejectsLeavesTheMoneyHeldWithTheReason() {
        String paymentId = authorised(unique(FakeAdyen.CAPTURE_FAILS));

        capture(paymentId, null);
        deliverAdyensNotifications();

        await().atMost(WAIT).untilAsserted(() -> assertThat(statusOf(paymentId)).isEqualTo("AUTHORIZED"));
        assertThat(db.sql("select failure_reason from payments where id = $1").bind(0, paymentId)
                .map(row -> row.get(0, String.class)).one().block(WAIT)).isEqualTo(FakeAdyen.CAPTURE_REJECTED);
        assertThat(amountCaptured(paymentId)).isZero();
    }

    @Test
    void aReleasedHoldIsCancelledWhenAdyenConfirms() {
        String paymentId = authorised(unique("pm_stored_release"));

        flow.cancel(request("/v1/payments/" + paymentId + "/cancel"), paymentId, "guest_cancelled", payment -> { },
                RENDERED).block(WAIT);
        assertThat(statusOf(paymentId)).as("Adyen only acknowledged the cancel").isEqualTo("AUTHORIZED");
        deliverAdyensNotifications();

        await().atMost(WAIT).untilAsserted(() -> assertThat(statusOf(paymentId)).isEqualTo("CANCELLED"));
        assertThat(ADYEN.releasesOf(ADYEN.paymentsFor(paymentId).get(0).get("pspReference").toString())).hasSize(1);
        assertThat(amountCaptured(paymentId)).isZero();
    }
}
