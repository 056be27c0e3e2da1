package com.payorch.connectors.adyen;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.fakes.FakeAdyen;
import com.payorch.testsupport.ApiTest;
import com.payorch.testsupport.OwnSchema;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The customer-action expiry at Adyen, against {@link FakeAdyen}: a payment whose shopper never comes back from the
 * 3-D Secure redirect is cancelled by its pspReference two seconds later; Adyen only acknowledges, and its CANCELLATION
 * notification FAILS the payment `authentication_expired`, once. An AUTHORISATION success that arrives after that is
 * an orphaned charge: the payment stays FAILED and the charge is given back by a reversal.
 */
@TestPropertySource(properties = {
        "payments.merchants.adyen3dsx.api-key=" + AdyenCustomerActionExpiryIT.MERCHANT_KEY,
        "payments.merchants.adyen3dsx.connectors.adyen.api-key=" + AdyenCustomerActionExpiryIT.API_KEY,
        "payments.merchants.adyen3dsx.connectors.adyen.merchant-account=" + AdyenCustomerActionExpiryIT.ACCOUNT,
        "payments.merchants.adyen3dsx.connectors.adyen.hmac-key=" + AdyenCustomerActionExpiryIT.HMAC_KEY,
        "payments.merchants.adyen3dsx.routing=adyen",
        "payments.connectors.adyen.read-timeout=PT5S",
        "payments.customer-action.expires-after=PT2S",
        "payments.recovery.interval=PT0.2S",
        "payments.recovery.pending-after=PT1S"})
@OwnSchema("adyen_customer_action_expiry_tests")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class AdyenCustomerActionExpiryIT extends ApiTest {

    static final String MERCHANT_KEY = "sk_test_adyen3dsx";
    static final String API_KEY = "AQE_FakeAdyenThreeDsExpiryKeyDoNotLog_024";
    static final String ACCOUNT = "PayorchThreeDsExpiryECOM";
    static final String HMAC_KEY = "44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056";
    private static final String MERCHANT = "adyen3dsx";
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final FakeAdyen ADYEN = new FakeAdyen().acceptKey(API_KEY);

    @DynamicPropertySource
    static void adyen(DynamicPropertyRegistry registry) {
        registry.add("payments.connectors.adyen.checkout-url", ADYEN::checkoutUrl);
    }

    @AfterAll
    static void stopAdyen() {
        ADYEN.close();
    }

    private JsonNode createWaiting() {
        String body = """
                {"bookingId": "%s", "amount": 1000, "currency": "EUR", "paymentMethod": "%s",
                 "captureMethod": "automatic", "returnUrl": "https://shop.example/back"}"""
                .formatted(unique("bk"), unique(FakeAdyen.THREE_DS));
        JsonNode payment = JSON.readTree(postPayment(MERCHANT_KEY, unique("key"), body).exchange()
                .expectStatus().isCreated().expectBody(String.class).returnResult().getResponseBody());
        assertThat(payment.get("status").textValue()).isEqualTo("REQUIRES_ACTION");
        return payment;
    }

    /** What Adyen has to send, signed, through the merchant's endpoint. */
    private void deliver(List<Map<String, Object>> items) {
        client.post().uri("/v1/webhooks/adyen/" + MERCHANT).header("Content-Type", "application/json")
                .bodyValue(FakeAdyen.notification(ACCOUNT, HMAC_KEY, items)).exchange()
                .expectStatus().isOk().expectBody(String.class).isEqualTo("[accepted]");
    }

    private long events(String paymentId, String type) {
        return count("select count(*) from events where payment_id = $1 and type = $2", paymentId, type);
    }

    private long failedTransitions(String paymentId) {
        return count("select count(*) from payment_transitions where payment_id = $1 and to_status = 'FAILED'",
                paymentId);
    }

    /** The shopper never comes back: the expiry cancels at Adyen, its CANCELLATION is delivered, the payment FAILS. */
    private String expired() {
        JsonNode payment = createWaiting();
        String id = payment.get("id").textValue();
        String psp = payment.get("connectorReference").textValue();

        Awaitility.await().atMost(WAIT).until(() -> !ADYEN.releasesOf(psp).isEmpty());
        assertThat(statusOf(id)).as("Adyen only acknowledged the cancel").isEqualTo("REQUIRES_ACTION");
        assertThat(ADYEN.releasesOf(psp)).as("one cancel by pspReference, on the attempt's cancel key")
                .singleElement().satisfies(release -> assertThat(release).containsEntry("released", true)
                        .containsEntry("idempotencyKey", id + "-cancel"));
        assertThat(ADYEN.stateOf(psp)).isEqualTo("cancelled");
        List<Map<String, Object>> confirmation = ADYEN.takeNotifications();
        assertThat(confirmation).singleElement().satisfies(item -> assertThat(item)
                .containsEntry("eventCode", "CANCELLATION").containsEntry("success", true)
                .containsEntry("originalReference", psp));

        deliver(confirmation);
        deliver(confirmation);   // Adyen delivers at least once

        Awaitility.await().atMost(WAIT).until(() -> "FAILED".equals(statusOf(id)));
        assertThat(queries.text("select failure_reason from payments where id = $1", id))
                .isEqualTo("authentication_expired");
        assertThat(count("select count(*) from payment_transitions where payment_id = $1 and to_status = 'FAILED'"
                + " and from_status = 'REQUIRES_ACTION'", id)).isEqualTo(1);
        assertThat(events(id, "payment.failed")).isEqualTo(1);
        assertThat(count("select count(*) from events where payment_id = $1 and type in ('payment.completed',"
                + " 'payment.cancelled', 'charge.orphaned')", id)).isZero();
        return id;
    }

    @Test
    void aShopperWhoNeverComesBackHasThePaymentCancelledAtAdyenAndFailedOnceByItsConfirmation() {
        String id = expired();

        assertThat(ADYEN.paymentsFor(id)).as("one payment at Adyen").hasSize(1);
        assertThat(ADYEN.capturedFor(id)).isZero();
        assertThat(ADYEN.reversalsOf(ADYEN.paymentsFor(id).get(0).get("pspReference").toString())).isEmpty();
        assertThat(failedTransitions(id)).isEqualTo(1);
    }

    @Test
    void anAuthorisationArrivingAfterTheExpiryIsAnOrphanedChargeGivenBackByAReversal() {
        String id = expired();
        String psp = ADYEN.paymentsFor(id).get(0).get("pspReference").toString();
        List<Map<String, Object>> late = new ArrayList<>(ADYEN.authorisation(psp, true).takeNotifications());
        assertThat(late).singleElement().satisfies(item -> assertThat(item)
                .containsEntry("eventCode", "AUTHORISATION").containsEntry("success", true));

        deliver(late);
        deliver(late);   // redelivered: still one orphan, one refund

        Awaitility.await().atMost(WAIT).until(() -> !ADYEN.reversalsOf(psp).isEmpty());
        String refundId = queries.text("select id from refunds where payment_id = $1 and attempt = 1"
                + " and reason = 'orphaned_charge'", id);
        assertThat(ADYEN.reversalsOf(psp)).as("given back by a reversal, never /refunds").singleElement()
                .satisfies(reversal -> assertThat(reversal).containsEntry("reference", refundId)
                        .containsEntry("idempotencyKey", refundId));
        assertThat(ADYEN.refundsOf(psp)).isEmpty();
        // Adyen's answer to the reversal (it holds the payment cancelled: not reversible) fails the refund.
        List<Map<String, Object>> answer = ADYEN.takeNotifications();
        assertThat(answer).singleElement().satisfies(item -> assertThat(item)
                .containsEntry("eventCode", "CANCEL_OR_REFUND").containsEntry("merchantReference", refundId));
        deliver(answer);
        Awaitility.await().atMost(WAIT).until(() -> !"PENDING".equals(
                queries.text("select status from refunds where id = $1", refundId)));
        assertThat(queries.text("select status from refunds where id = $1", refundId)).isEqualTo("FAILED");
        assertThat(ADYEN.reversalsOf(psp)).as("given back once").hasSize(1);
        assertThat(count("select count(*) from refunds where payment_id = $1", id)).isEqualTo(1);
        assertThat(count("select count(*) from payment_attempts where payment_id = $1 and number = 1"
                + " and orphaned_at is not null and reference = $2", id, psp)).isEqualTo(1);
        assertThat(events(id, "charge.orphaned")).isEqualTo(1);
        assertThat(statusOf(id)).isEqualTo("FAILED");
        assertThat(queries.text("select failure_reason from payments where id = $1", id))
                .isEqualTo("authentication_expired");
        assertThat(failedTransitions(id)).isEqualTo(1);
        assertThat(events(id, "payment.failed")).isEqualTo(1);
        assertThat(events(id, "payment.completed")).isZero();
    }
}
