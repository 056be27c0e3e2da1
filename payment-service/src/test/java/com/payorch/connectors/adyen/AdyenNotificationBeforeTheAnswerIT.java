package com.payorch.connectors.adyen;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.fakes.FakeAdyen;
import com.payorch.testsupport.ApiTest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * An Adyen notification that comes before the service knows the attempt's pspReference (the submit's answer was
 * lost). Adyen has no look-up of a payment and sends an AUTHORISATION once: a notification set aside as "no attempt
 * has this charge" left the payment PROCESSING for good (the fault campaign, seed 15965777033620). Recovery is off
 * here, so nothing but the notification can learn the reference. Since contract v3 (issue 22, finding 5) the
 * notification names its attempt (`additionalData.metadata.attempt`, returned from the `/payments` metadata) and is
 * bound to it exactly, never by elimination (Adyen's look-up is no evidence: it cannot place a charge).
 */
@TestPropertySource(properties = {
        "payments.merchants.adyenearly.api-key=sk_test_adyenearly",
        "payments.merchants.adyenearly.connectors.adyen.api-key=" + AdyenConnectorIT.API_KEY,
        "payments.merchants.adyenearly.connectors.adyen.merchant-account=" + AdyenConnectorIT.ACCOUNT,
        "payments.merchants.adyenearly.connectors.adyen.hmac-key=" + AdyenConnectorIT.HMAC_KEY,
        "payments.merchants.adyenearly.routing=adyen",
        "payments.connectors.adyen.read-timeout=PT3S",
        "payments.recovery.pending-after=PT1H",
        "payments.recovery.processing-after=PT1H",
        "spring.r2dbc.properties.schema=adyen_early_tests",
        "spring.flyway.schemas=adyen_early_tests",
        "spring.flyway.default-schema=adyen_early_tests"})
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class AdyenNotificationBeforeTheAnswerIT extends ApiTest {

    private static final FakeAdyen ADYEN = new FakeAdyen().acceptKey(AdyenConnectorIT.API_KEY);

    @DynamicPropertySource
    static void adyen(DynamicPropertyRegistry registry) {
        registry.add("payments.connectors.adyen.checkout-url", ADYEN::checkoutUrl);
    }

    @AfterAll
    static void stopAdyen() {
        ADYEN.close();
    }

    /** A payment Adyen took as `Received` whose answer was lost (a 5xx after processing): no reference recorded. */
    private String receivedWithTheAnswerLost() {
        return receivedWithTheAnswerLost(unique("pm_card_processing"));
    }

    private String receivedWithTheAnswerLost(String token) {
        String booking = unique("bk");
        ADYEN.failNext(token, FakeAdyen.Failure.ERROR_500_AFTER_CHARGE);
        postPayment("sk_test_adyenearly", unique("key"), """
                {"bookingId": "%s", "amount": 1000, "currency": "EUR", "paymentMethod": "%s"}"""
                .formatted(booking, token)).exchange().expectStatus().isEqualTo(HttpStatus.BAD_GATEWAY);
        String id = db.sql("select id from payments where booking_id = $1").bind(0, booking)
                .map(row -> row.get(0, String.class)).one().block(Duration.ofSeconds(10));
        assertThat(count("select count(*) from payment_attempts where payment_id = $1 and reference is null", id))
                .isEqualTo(1);
        return id;
    }

    private WebTestClient.ResponseSpec notify(String psp, String paymentId, boolean success) {
        return notify(psp, paymentId, 1, success);
    }

    /** Adyen's AUTHORISATION as it sends it: the `/payments` metadata back as `additionalData.metadata.*`. */
    private WebTestClient.ResponseSpec notify(String psp, String paymentId, int attempt, boolean success) {
        Map<String, Object> item = Map.of("pspReference", psp, "merchantReference", paymentId, "success", success,
                "value", 1000L, "currency", "EUR", "reason", success ? "" : "Not enough balance",
                "additionalData", Map.of("metadata.paymentId", paymentId, "metadata.attempt",
                        Integer.toString(attempt)));
        return client.post().uri("/v1/webhooks/adyen/adyenearly").header("Content-Type", "application/json")
                .bodyValue(FakeAdyen.notification(AdyenConnectorIT.ACCOUNT, AdyenConnectorIT.HMAC_KEY,
                        List.of(item))).exchange();
    }

    private String pspOf(String paymentId) {
        List<Map<String, Object>> made = ADYEN.paymentsFor(paymentId);
        assertThat(made).hasSize(1);
        return (String) made.get(0).get("pspReference");
    }

    private String referenceOf(String paymentId) {
        return referenceOf(paymentId, 1);
    }

    private String referenceOf(String paymentId, int attempt) {
        return db.sql("select coalesce(reference, '-') from payment_attempts where payment_id = $1 and number = $2")
                .bind(0, paymentId).bind(1, attempt).map(row -> row.get(0, String.class)).one()
                .block(Duration.ofSeconds(10));
    }

    private WebTestClient.ResponseSpec retry(String paymentId, String key) {
        return client.post().uri("/v1/payments/" + paymentId + "/retry")
                .header("Authorization", "Bearer sk_test_adyenearly").header("Idempotency-Key", key)
                .header("Content-Type", "application/json").bodyValue("{}").exchange();
    }

    /**
     * What recovery does to a PENDING attempt after {@code give-up-after} when Adyen (which has no look-up) cannot
     * say it holds a charge: the payment FAILS with {@code gateway_unreachable}, the attempt keeping no reference.
     */
    private void givenUpAsUnreachable(String paymentId) {
        db.sql("update payment_attempts set status = 'FAILED', failure_reason = 'gateway_unreachable'"
                + " where payment_id = $1 and number = 1").bind(0, paymentId).then().block(Duration.ofSeconds(10));
        db.sql("update payments set status = 'FAILED', failure_reason = 'gateway_unreachable', version = version + 1"
                + " where id = $1").bind(0, paymentId).then().block(Duration.ofSeconds(10));
    }

    @Test
    void anAuthorisationForTheOnlyAttemptWithoutAReferenceCompletesThePaymentOnce() {
        String id = receivedWithTheAnswerLost();
        String psp = pspOf(id);

        notify(psp, id, true).expectStatus().isOk().expectBody(String.class).isEqualTo("[accepted]");
        notify(psp, id, true).expectStatus().isOk().expectBody(String.class).isEqualTo("[accepted]");

        assertThat(statusOf(id)).isEqualTo("COMPLETED");
        assertThat(referenceOf(id)).isEqualTo(psp);
        assertThat(count("select count(*) from payment_transitions where payment_id = $1 and event = 'SUCCEED'", id))
                .isEqualTo(1);
        assertThat(count("select count(*) from webhook_receipts where payment_id = $1 and outcome = 'applied'", id))
                .isEqualTo(1);
        assertThat(ADYEN.paymentsFor(id)).hasSize(1);
    }

    @Test
    void aRefusalForTheOnlyAttemptWithoutAReferenceFailsThePaymentWithItsReason() {
        String id = receivedWithTheAnswerLost();
        String psp = pspOf(id);

        notify(psp, id, false).expectStatus().isOk().expectBody(String.class).isEqualTo("[accepted]");

        assertThat(statusOf(id)).isEqualTo("FAILED");
        assertThat(referenceOf(id)).isEqualTo(psp);
        assertThat(db.sql("select failure_reason from payments where id = $1").bind(0, id)
                .map(row -> row.get(0, String.class)).one().block(Duration.ofSeconds(10)))
                .isEqualTo("Not enough balance");
    }

    @Test
    void aChargeNamingItsAttemptIsBoundToItAtOnceWhileSeveralAttemptsHaveNoReference() {
        String token = unique("pm_card_processing");
        String id = receivedWithTheAnswerLost(token);
        String firstPsp = pspOf(id);
        givenUpAsUnreachable(id);
        ADYEN.failNext(token, FakeAdyen.Failure.ERROR_500_AFTER_CHARGE);
        String retryKey = unique("retry");
        retry(id, retryKey).expectStatus().isEqualTo(HttpStatus.BAD_GATEWAY);
        assertThat(count("select count(*) from payment_attempts where payment_id = $1 and reference is null", id))
                .isEqualTo(2);

        // Attempt 1's success, named by Adyen as attempt 1: bound to it exactly, not by elimination, not refused.
        notify(firstPsp, id, 1, true).expectStatus().isOk().expectBody(String.class).isEqualTo("[accepted]");

        assertThat(referenceOf(id, 1)).isEqualTo(firstPsp);
        assertThat(referenceOf(id, 2)).as("attempt 2's charge is not attempt 1's").isEqualTo("-");
        assertThat(count("select count(*) from webhook_receipts where payment_id = $1 and outcome = 'rejected'", id))
                .isEqualTo(1);
        assertThat(count("select count(*) from payment_attempts where payment_id = $1 and number = 1"
                + " and orphaned_at is not null", id)).isEqualTo(1);
        assertThat(ADYEN.paymentsFor(id)).hasSize(2);
    }
}
