package com.payorch.connectors.adyen;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.fakes.FakeAdyen;
import com.payorch.testsupport.ApiTest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import io.micrometer.core.instrument.MeterRegistry;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.http.HttpStatus;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Adyen end to end against {@link FakeAdyen}: the `/payments` request, resultCode mapping, HMAC-verified
 * notification batches answered `[accepted]` (an invalid item not applied, duplicates by pspReference + eventCode +
 * success), a 5xx after Adyen authorised (one payment, same key), and failover after a definite 401.
 */
@TestPropertySource(properties = {
        "payments.merchants.adyeny.api-key=sk_test_adyeny",
        "payments.merchants.adyeny.connectors.adyen.api-key=" + AdyenConnectorIT.API_KEY,
        "payments.merchants.adyeny.connectors.adyen.merchant-account=" + AdyenConnectorIT.ACCOUNT,
        // Rotation: the new key and the one being retired, comma-separated; an item signed with either is read.
        "payments.merchants.adyeny.connectors.adyen.hmac-key=" + AdyenConnectorIT.HMAC_KEY + ","
                + AdyenConnectorIT.RETIRING_HMAC_KEY,
        "payments.merchants.adyeny.routing=adyen",
        "payments.merchants.adyenrevoked.api-key=sk_test_adyenrevoked",
        "payments.merchants.adyenrevoked.connectors.adyen.api-key=AQE_RevokedAdyenKeyDoNotLog",
        "payments.merchants.adyenrevoked.connectors.adyen.merchant-account=" + AdyenConnectorIT.ACCOUNT,
        "payments.merchants.adyenrevoked.routing=adyen,sandbox",
        "payments.merchants.adyenfailover.api-key=sk_test_adyenfailover",
        "payments.merchants.adyenfailover.connectors.adyen.api-key=" + AdyenConnectorIT.API_KEY,
        "payments.merchants.adyenfailover.connectors.adyen.merchant-account=" + AdyenConnectorIT.ACCOUNT,
        "payments.merchants.adyenfailover.routing=adyen,sandbox",
        "payments.connectors.adyen.read-timeout=PT3S",
        "payments.recovery.pending-after=PT1S",
        "payments.recovery.processing-after=PT1H",
        "payments.recovery.interval=PT0.2S",
        "payments.gateway.sandbox.webhook-delay=PT1H",
        "spring.r2dbc.properties.schema=adyen_tests",
        "spring.flyway.schemas=adyen_tests",
        "spring.flyway.default-schema=adyen_tests"})
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@ExtendWith(OutputCaptureExtension.class)
class AdyenConnectorIT extends ApiTest {

    static final String API_KEY = "AQE_FakeAdyenApiKeyDoNotLog_0001";
    static final String ACCOUNT = "PayorchTestECOM";
    static final String HMAC_KEY = "44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056";
    static final String RETIRING_HMAC_KEY = "A1B2C3D4E5F60718293A4B5C6D7E8F90A1B2C3D4E5F60718293A4B5C6D7E8F90";

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

    private WebTestClient.ResponseSpec create(String apiKey, String key, String booking, String method) {
        return postPayment(apiKey, key, """
                {"bookingId": "%s", "amount": 1000, "currency": "EUR", "paymentMethod": "%s"}"""
                .formatted(booking, method)).exchange();
    }

    private JsonNode created(String apiKey, String method) {
        return JSON.readTree(create(apiKey, unique("key"), unique("bk"), method).expectStatus().isCreated()
                .expectBody(String.class).returnResult().getResponseBody());
    }


    private WebTestClient.ResponseSpec notify(String merchant, String body) {
        return client.post().uri("/v1/webhooks/adyen/" + merchant).header("Content-Type", "application/json")
                .bodyValue(body).exchange();
    }

    private static Map<String, Object> item(String psp, String paymentId, boolean success) {
        return Map.of("pspReference", psp, "merchantReference", paymentId, "success", success, "value", 1000L,
                "currency", "EUR", "reason", success ? "" : "Not enough balance");
    }

    @Test
    void anAuthorisedPaymentCompletesWithOneAdyenPaymentMadeAsTheContractSays() {
        JsonNode payment = created("sk_test_adyeny", "pm_card_visa");
        String id = payment.get("id").textValue();

        assertThat(payment.get("status").textValue()).isEqualTo("COMPLETED");
        assertThat(payment.get("connector").textValue()).isEqualTo("adyen");
        List<Map<String, Object>> made = ADYEN.paymentsFor(id);
        assertThat(made).hasSize(1);
        assertThat(made.get(0)).containsEntry("merchantAccount", ACCOUNT).containsEntry("idempotencyKey", id)
                .containsEntry("metadata.attempt", "1");
        assertThat(payment.get("connectorReference").textValue()).isEqualTo(made.get(0).get("pspReference"));
    }

    @Test
    void aRefusalIsFailedWithTheRefusalReason() {
        JsonNode payment = created("sk_test_adyeny", "pm_card_chargeDeclined");

        assertThat(payment.get("status").textValue()).isEqualTo("FAILED");
        assertThat(payment.get("failureReason").textValue()).isEqualTo("Refused");
    }

    @Test
    void aReceivedPaymentIsSettledByItsHmacSignedNotificationOnceAndABadItemIsNotApplied() {
        JsonNode payment = created("sk_test_adyeny", unique("pm_card_processing"));
        String id = payment.get("id").textValue();
        String psp = payment.get("connectorReference").textValue();
        assertThat(payment.get("status").textValue()).isEqualTo("PROCESSING");

        // One forged item (signed with another key, claiming a failure) and the genuine success, in one batch.
        Map<String, Object> forged = new java.util.HashMap<>(item(psp, id, false));
        forged.put("signWith", "00112233445566778899AABBCCDDEEFF00112233445566778899AABBCCDDEEFF");
        String batch = FakeAdyen.notification(ACCOUNT, HMAC_KEY, List.of(forged, item(psp, id, true)));

        notify("adyeny", batch).expectStatus().isOk().expectBody(String.class).isEqualTo("[accepted]");
        assertThat(statusOf(id)).isEqualTo("COMPLETED");
        assertThat(count("select count(*) from webhook_receipts where webhook_id = $1",
                "adyen:" + psp + ":AUTHORISATION:false")).isZero();

        notify("adyeny", batch).expectStatus().isOk().expectBody(String.class).isEqualTo("[accepted]");
        assertThat(count("select count(*) from webhook_receipts where webhook_id = $1",
                "adyen:" + psp + ":AUTHORISATION:true")).isEqualTo(1);
        assertThat(count("select count(*) from payment_transitions where payment_id = $1 and event = 'SUCCEED'", id))
                .isEqualTo(1);
    }

    @Autowired
    private MeterRegistry meters;

    private double signatureFailures() {
        var counter = meters.find("payments.webhook.signature.failures").tag("connector", "adyen").counter();
        return counter == null ? 0 : counter.count();
    }

    /**
     * Issue 22, finding 6 (Adyen): during a key rotation an item signed with either configured key is applied; an item
     * signed with neither is not applied, is counted, and does not stop the items after it in its batch.
     */
    @Test
    void duringAKeyRotationEitherKeyIsAcceptedAndAForgedItemIsCountedWithoutStoppingItsBatch() {
        JsonNode first = created("sk_test_adyeny", unique("pm_card_processing"));
        JsonNode second = created("sk_test_adyeny", unique("pm_card_processing"));
        String a = first.get("id").textValue();
        String b = second.get("id").textValue();
        Map<String, Object> signedWithTheRetiringKey = new java.util.HashMap<>(
                item(first.get("connectorReference").textValue(), a, true));
        signedWithTheRetiringKey.put("signWith", RETIRING_HMAC_KEY);
        Map<String, Object> forged = new java.util.HashMap<>(item(second.get("connectorReference").textValue(), b,
                false));
        forged.put("signWith", "00112233445566778899AABBCCDDEEFF00112233445566778899AABBCCDDEEFF");
        Map<String, Object> signedWithTheNewKey = item(second.get("connectorReference").textValue(), b, true);
        double before = signatureFailures();

        notify("adyeny", FakeAdyen.notification(ACCOUNT, HMAC_KEY,
                List.of(signedWithTheRetiringKey, forged, signedWithTheNewKey)))
                .expectStatus().isOk().expectBody(String.class).isEqualTo("[accepted]");

        assertThat(statusOf(a)).isEqualTo("COMPLETED");
        assertThat(statusOf(b)).isEqualTo("COMPLETED");
        assertThat(signatureFailures() - before).isEqualTo(1.0);
        assertThat(count("select count(*) from webhook_receipts where payment_id = $1 and webhook_id like '%:false'",
                b)).isZero();
    }

    @Test
    void reorderedAndDuplicatedNotificationsApplyEachOnceWhateverTheirOrder() {
        JsonNode first = created("sk_test_adyeny", unique("pm_card_processing"));
        JsonNode second = created("sk_test_adyeny", unique("pm_card_processing"));
        String a = first.get("id").textValue();
        String b = second.get("id").textValue();
        Map<String, Object> aSucceeded = item(first.get("connectorReference").textValue(), a, true);
        Map<String, Object> bFailed = item(second.get("connectorReference").textValue(), b, false);

        // The later payment's item first; then Adyen's redelivery of both, in the other order.
        notify("adyeny", FakeAdyen.notification(ACCOUNT, HMAC_KEY, List.of(bFailed, aSucceeded)))
                .expectStatus().isOk().expectBody(String.class).isEqualTo("[accepted]");
        notify("adyeny", FakeAdyen.notification(ACCOUNT, HMAC_KEY, List.of(aSucceeded, bFailed)))
                .expectStatus().isOk().expectBody(String.class).isEqualTo("[accepted]");

        assertThat(statusOf(a)).isEqualTo("COMPLETED");
        assertThat(statusOf(b)).isEqualTo("FAILED");
        assertThat(count("select count(*) from payment_transitions where payment_id = $1 and event = 'SUCCEED'", a))
                .isEqualTo(1);
        assertThat(count("select count(*) from payment_transitions where payment_id = $1 and event = 'FAIL'", b))
                .isEqualTo(1);
        assertThat(count("select count(*) from webhook_receipts where payment_id in ($1, $2)", a, b)).isEqualTo(2);
        assertThat(count("select count(*) from events e join payments p on p.merchant_id = e.merchant_id"
                + " and p.booking_id = e.booking_id where p.id = $1 and e.type = 'booking.activated'", a)).isEqualTo(1);
    }

    @Test
    void aFailedAuthorisationNotificationFailsThePaymentWithItsReason() {
        JsonNode payment = created("sk_test_adyeny", unique("pm_card_processing"));
        String id = payment.get("id").textValue();

        notify("adyeny", FakeAdyen.notification(ACCOUNT, HMAC_KEY,
                List.of(item(payment.get("connectorReference").textValue(), id, false))))
                .expectStatus().isOk().expectBody(String.class).isEqualTo("[accepted]");

        assertThat(statusOf(id)).isEqualTo("FAILED");
        assertThat(db.sql("select failure_reason from payments where id = $1").bind(0, id)
                .map(row -> row.get(0, String.class)).one().block(Duration.ofSeconds(10)))
                .isEqualTo("Not enough balance");
    }

    @Test
    void a5xxAfterAdyenAuthorisedStaysOnAdyenAndTheSameKeyBringsBackTheOnePayment() {
        String booking = unique("bk");
        String key = unique("key");
        String token = unique("pm_card_stored");
        ADYEN.failNext(token, FakeAdyen.Failure.ERROR_500_AFTER_CHARGE);

        create("sk_test_adyeny", key, booking, token).expectStatus().isEqualTo(HttpStatus.BAD_GATEWAY)
                .expectBody().jsonPath("$.code").isEqualTo("gateway_error");
        create("sk_test_adyeny", key, booking, token).expectStatus().isCreated();

        String id = db.sql("select id from payments where booking_id = $1").bind(0, booking)
                .map(row -> row.get(0, String.class)).one().block(Duration.ofSeconds(10));
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> "COMPLETED".equals(statusOf(id)));
        assertThat(ADYEN.paymentsFor(id)).hasSize(1);
    }

    /**
     * An ambiguous failure at Adyen on a route with a next connector: the attempt stays on Adyen (never the
     * sandbox), and the client's retry or recovery with the same Idempotency-Key gets Adyen's one payment.
     */
    private void ambiguousFailureIsResolvedOnAdyenWithOnePayment(FakeAdyen.Failure failure) {
        String booking = unique("bk");
        String key = unique("key");
        String token = unique("pm_card_stored");
        ADYEN.failNext(token, failure);

        create("sk_test_adyenfailover", key, booking, token).expectStatus().isEqualTo(HttpStatus.BAD_GATEWAY)
                .expectBody().jsonPath("$.code").isEqualTo("gateway_error");
        String id = db.sql("select id from payments where booking_id = $1").bind(0, booking)
                .map(row -> row.get(0, String.class)).one().block(Duration.ofSeconds(10));
        create("sk_test_adyenfailover", key, booking, token).expectStatus().is2xxSuccessful();

        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> "COMPLETED".equals(statusOf(id)));
        assertThat(ADYEN.paymentsFor(id)).hasSize(1);
        assertThat(count("select count(*) from sandbox_charges where payment_id = $1", id)).isZero();
        assertThat(db.sql("select p.connector || '/' || a.connector || '/' || a.reference from payments p"
                        + " join payment_attempts a on a.payment_id = p.id where p.id = $1").bind(0, id)
                .map(row -> row.get(0, String.class)).one().block(Duration.ofSeconds(10)))
                .isEqualTo("adyen/adyen/" + ADYEN.paymentsFor(id).get(0).get("pspReference"));
    }

    @Test
    void aTimeOutAfterAdyenAuthorisedStaysOnAdyenAndIsChargedOnce() {
        ambiguousFailureIsResolvedOnAdyenWithOnePayment(FakeAdyen.Failure.TIMEOUT_AFTER_CHARGE);
    }

    @Test
    void a5xxAfterAdyenAuthorisedOnARouteWithAFailoverStaysOnAdyenAndIsChargedOnce() {
        ambiguousFailureIsResolvedOnAdyenWithOnePayment(FakeAdyen.Failure.ERROR_500_AFTER_CHARGE);
    }

    @Test
    void a5xxBeforeAdyenProcessedStaysOnAdyenAndIsChargedOnce() {
        ambiguousFailureIsResolvedOnAdyenWithOnePayment(FakeAdyen.Failure.ERROR_500_BEFORE_CHARGE);
    }

    @Test
    void noAdyenSecretReachesTheEventsTheStoredResponsesOrTheReceipts() {
        JsonNode processing = created("sk_test_adyeny", unique("pm_card_processing"));
        String id = processing.get("id").textValue();
        String psp = processing.get("connectorReference").textValue();
        notify("adyeny", FakeAdyen.notification(ACCOUNT, HMAC_KEY, List.of(item(psp, id, true))))
                .expectStatus().isOk();
        created("sk_test_adyenrevoked", "pm_card_visa");
        String problem = notify("nobody", "{\"live\": \"false\", \"notificationItems\": []}")
                .expectStatus().isNotFound().expectBody(String.class).returnResult().getResponseBody();
        assertThat(problem).doesNotContain(API_KEY).doesNotContain(HMAC_KEY);
        for (String secret : new String[] {API_KEY, HMAC_KEY, "AQE_RevokedAdyenKeyDoNotLog"}) {
            assertThat(count("select count(*) from events where data::text like '%' || $1 || '%'", secret)).isZero();
            assertThat(count("select count(*) from idempotency_keys where coalesce(convert_from(response_body,"
                    + " 'UTF8'), '') like '%' || $1 || '%'", secret)).isZero();
            assertThat(count("select count(*) from webhook_receipts where coalesce(detail, '') like '%' || $1"
                    + " || '%'", secret)).isZero();
        }
    }

    @Test
    void aRevokedAdyenKeyFailsOverToTheNextConnector(CapturedOutput output) {
        JsonNode payment = created("sk_test_adyenrevoked", "pm_card_visa");
        String id = payment.get("id").textValue();

        // The API's own submit or recovery (whichever took the last doubt back) moves it; then the sandbox charges.
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> "PROCESSING".equals(statusOf(id)));
        assertThat(db.sql("select p.connector || '/' || a.connector from payments p join payment_attempts a"
                + " on a.payment_id = p.id where p.id = $1").bind(0, id).map(row -> row.get(0, String.class)).one()
                .block(Duration.ofSeconds(10))).isEqualTo("sandbox/sandbox");
        assertThat(ADYEN.paymentsFor(id)).isEmpty();
        assertThat(count("select count(*) from sandbox_charges where payment_id = $1", id)).isEqualTo(1);
        assertThat(output.getAll()).doesNotContain("AQE_RevokedAdyenKeyDoNotLog").doesNotContain(API_KEY)
                .doesNotContain(HMAC_KEY);
    }

    @Test
    void unknownMerchantsAndMerchantsWithoutAdyenAre404() {
        String batch = FakeAdyen.notification(ACCOUNT, HMAC_KEY, List.of(item("8815000000000001", "pay_x", true)));
        notify("nobody", batch).expectStatus().isNotFound().expectBody().jsonPath("$.code").isEqualTo("not_found");
        notify("demo", batch).expectStatus().isNotFound();
    }

    @Test
    void anAdyenRefundIsOneRefundOfThePspReferenceKeyedByTheRefundIdAndSettledByItsRefundNotificationOnce() {
        JsonNode payment = created("sk_test_adyeny", "pm_card_visa_refund");
        String id = payment.get("id").textValue();
        String psp = payment.get("connectorReference").textValue();
        assertThat(payment.get("status").textValue()).isEqualTo("COMPLETED");

        JsonNode refund = JSON.readTree(client.post().uri("/v1/payments/" + id + "/refunds")
                .header("Authorization", "Bearer sk_test_adyeny").header("Idempotency-Key", unique("rk"))
                .header("Content-Type", "application/json").bodyValue("{\"amount\": 400}")
                .exchange().expectStatus().isCreated().expectBody(String.class).returnResult().getResponseBody());
        String refundId = refund.get("id").textValue();
        assertThat(refund.get("status").textValue()).isEqualTo("PENDING");
        assertThat(refund.get("connector").textValue()).isEqualTo("adyen");
        List<Map<String, Object>> made = ADYEN.refundsOf(psp);
        assertThat(made).hasSize(1);
        assertThat(made.get(0).get("reference")).isEqualTo(refundId);
        assertThat(made.get(0).get("idempotencyKey")).isEqualTo(refundId);
        assertThat(made.get(0).get("amount")).isEqualTo(Map.of("currency", "EUR", "value", 400L));
        assertThat(refund.get("connectorReference").textValue()).isEqualTo(made.get(0).get("pspReference"));

        String batch = FakeAdyen.notification(ACCOUNT, HMAC_KEY, List.of(Map.of("eventCode", "REFUND",
                "pspReference", made.get(0).get("pspReference"), "originalReference", psp,
                "merchantReference", refundId, "success", true, "value", 400L, "currency", "EUR")));
        notify("adyeny", batch).expectStatus().isOk().expectBody(String.class).isEqualTo("[accepted]");
        notify("adyeny", batch).expectStatus().isOk().expectBody(String.class).isEqualTo("[accepted]");

        assertThat(count("select count(*) from refunds where id = $1 and status = 'SUCCEEDED'", refundId))
                .isEqualTo(1);
        assertThat(count("select amount_refunded from payments where id = $1", id)).isEqualTo(400);
        assertThat(count("select count(*) from events where payment_id = $1 and type = 'refund.succeeded'", id))
                .isEqualTo(1);
    }
}
