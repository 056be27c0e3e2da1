package com.payorch.connectors.adyen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.payorch.fakes.FakeAdyen;
import com.payorch.testsupport.ApiTest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Contract v3, "give up only on evidence", end to end at Adyen, which has no look-up: a payment whose every submit
 * got an ambiguous answer (Adyen's 500) is not FAILED at give-up-after on the look-up's silence; the service cancels
 * by its own reference ({@code POST /cancels}), and only Adyen's TECHNICAL_CANCEL confirmation FAILs it
 * {@code gateway_unreachable}, even when Adyen held nothing (the notification then names no attempt and no amount).
 */
@TestPropertySource(properties = {
        "payments.merchants.adyengiveup.api-key=sk_test_adyengiveup",
        "payments.merchants.adyengiveup.connectors.adyen.api-key=" + AdyenGiveUpIT.API_KEY,
        "payments.merchants.adyengiveup.connectors.adyen.merchant-account=" + AdyenGiveUpIT.ACCOUNT,
        "payments.merchants.adyengiveup.connectors.adyen.hmac-key=" + AdyenGiveUpIT.HMAC_KEY,
        "payments.merchants.adyengiveup.routing=adyen",
        "payments.connectors.adyen.read-timeout=PT5S",
        "payments.recovery.pending-after=PT0.5S",
        "payments.recovery.give-up-after=PT2S",
        "payments.recovery.interval=PT0.2S",
        "spring.r2dbc.properties.schema=adyen_give_up_tests",
        "spring.flyway.schemas=adyen_give_up_tests",
        "spring.flyway.default-schema=adyen_give_up_tests"})
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class AdyenGiveUpIT extends ApiTest {

    static final String API_KEY = "AQE_FakeAdyenGiveUpKeyDoNotLog_0022";
    static final String ACCOUNT = "PayorchGiveUpECOM";
    static final String HMAC_KEY = "44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056";

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

    @Test
    void aPaymentAdyenNeverAnsweredIsFailedOnlyOnceAdyenConfirmsTheCancelByReference() {
        String token = unique("pm_stored_unanswered");
        for (int i = 0; i < 500; i++) {
            ADYEN.failNext(token, FakeAdyen.Failure.ERROR_500_BEFORE_CHARGE);
        }
        postPayment("sk_test_adyengiveup", unique("key"), """
                {"bookingId": "%s", "amount": 1000, "currency": "EUR", "paymentMethod": "%s"}"""
                .formatted(unique("bk"), token)).exchange();
        String paymentId = paymentIdOfBookingWithToken(token);

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(ADYEN.cancelsFor(paymentId)).as("cancelled by reference at give-up").isNotEmpty());
        assertThat(statusOf(paymentId)).as("the look-up's silence is no evidence").isEqualTo("PENDING");
        assertThat(count("select count(*) from payment_attempts where payment_id = $1 and attention_reason is not null",
                paymentId)).as("listed as needing attention while unconfirmed").isEqualTo(1);

        List<Map<String, Object>> confirmation = ADYEN.takeNotifications().stream()
                .filter(item -> paymentId.equals(item.get("merchantReference"))).toList();
        assertThat(confirmation).extracting(item -> item.get("eventCode")).containsExactly("TECHNICAL_CANCEL");
        client.post().uri("/v1/webhooks/adyen/adyengiveup").header("Content-Type", "application/json")
                .bodyValue(FakeAdyen.notification(ACCOUNT, HMAC_KEY, confirmation)).exchange()
                .expectStatus().isOk().expectBody(String.class).isEqualTo("[accepted]");

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            JsonNode payment = JSON.readTree(client.get().uri("/v1/payments/" + paymentId)
                    .header("Authorization", "Bearer sk_test_adyengiveup").exchange()
                    .expectStatus().isOk().expectBody(String.class).returnResult().getResponseBody());
            assertThat(payment.get("status").textValue()).isEqualTo("FAILED");
            assertThat(payment.get("failureReason").textValue()).isEqualTo("gateway_unreachable");
        });
        assertThat(count("select count(*) from payment_attempts where payment_id = $1 and attention_reason is not null",
                paymentId)).as("settled: no longer needs attention").isZero();
        assertThat(ADYEN.paymentsFor(paymentId)).as("Adyen never charged it").isEmpty();
    }

    private String paymentIdOfBookingWithToken(String token) {
        return db.sql("select id from payments where payment_method = $1").bind(0, token)
                .map(row -> row.get(0, String.class)).one().block(Duration.ofSeconds(10));
    }
}
