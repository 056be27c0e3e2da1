package com.payorch.connectors.adyen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.payorch.fakes.FakeAdyen;
import com.payorch.testsupport.ApiTest;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Adyen's dispute notifications through the merchant's endpoint, the service and {@link FakeAdyen} (issue 25): a
 * notice of chargeback opens a dispute of the payment Adyen names (`originalReference`), a chargeback loses it, a
 * reversal wins it back, a second chargeback loses it for good; each item is applied once, in whatever order Adyen
 * sends them; an item about a payment Adyen never took for us is acknowledged and changes nothing; a forged one is
 * counted and not applied.
 */
@TestPropertySource(properties = {
        "payments.merchants.adyendisputes.api-key=" + AdyenDisputesIT.MERCHANT_KEY,
        "payments.merchants.adyendisputes.connectors.adyen.api-key=" + AdyenDisputesIT.API_KEY,
        "payments.merchants.adyendisputes.connectors.adyen.merchant-account=" + AdyenDisputesIT.ACCOUNT,
        "payments.merchants.adyendisputes.connectors.adyen.hmac-key=" + AdyenDisputesIT.HMAC_KEY,
        "payments.merchants.adyendisputes.routing=adyen",
        "payments.connectors.adyen.read-timeout=PT5S",
        "payments.recovery.pending-after=PT1H",
        "payments.recovery.processing-after=PT1H",
        "spring.r2dbc.properties.schema=adyen_dispute_tests",
        "spring.flyway.schemas=adyen_dispute_tests",
        "spring.flyway.default-schema=adyen_dispute_tests"})
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class AdyenDisputesIT extends ApiTest {

    static final String MERCHANT_KEY = "sk_test_adyendisputes";
    static final String API_KEY = "AQE_FakeAdyenDisputesKeyDoNotLog_0025";
    static final String ACCOUNT = "PayorchDisputesECOM";
    static final String HMAC_KEY = "44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056";
    private static final String FORGED_KEY = "00112233445566778899AABBCCDDEEFF00112233445566778899AABBCCDDEEFF";
    private static final String MERCHANT = "adyendisputes";
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final FakeAdyen ADYEN = new FakeAdyen().acceptKey(API_KEY);

    @Autowired
    private MeterRegistry meters;

    @DynamicPropertySource
    static void adyen(DynamicPropertyRegistry registry) {
        registry.add("payments.connectors.adyen.checkout-url", ADYEN::checkoutUrl);
    }

    @AfterAll
    static void stopAdyen() {
        ADYEN.close();
    }

    /** A payment Adyen took (automatic capture): COMPLETED, its AUTHORISATION delivered. */
    private JsonNode completed() {
        JsonNode payment = JSON.readTree(postPayment(MERCHANT_KEY, unique("key"), """
                {"bookingId": "%s", "amount": 1000, "currency": "EUR", "paymentMethod": "%s"}"""
                .formatted(unique("bk"), unique("pm_card_visa"))).exchange().expectStatus().isCreated()
                .expectBody(String.class).returnResult().getResponseBody());
        assertThat(payment.get("status").textValue()).isEqualTo("COMPLETED");
        List<Map<String, Object>> authorisation = ADYEN.takeNotifications();
        if (!authorisation.isEmpty()) {
            deliver(authorisation);
        }
        return payment;
    }

    /** Adyen's dispute notification about the payment, as the fake queues it (one item). */
    private Map<String, Object> chargeback(JsonNode payment, String eventCode, String reason) {
        ADYEN.chargeback(payment.get("connectorReference").textValue(), eventCode, 1000, reason);
        return ADYEN.takeNotifications().get(0);
    }

    private void deliver(List<Map<String, Object>> items) {
        client.post().uri("/v1/webhooks/adyen/" + MERCHANT).header("Content-Type", "application/json")
                .bodyValue(FakeAdyen.notification(ACCOUNT, HMAC_KEY, items)).exchange()
                .expectStatus().isOk().expectBody(String.class).isEqualTo("[accepted]");
    }

    private JsonNode disputesOf(String paymentId) {
        return JSON.readTree(client.get().uri("/v1/payments/" + paymentId + "/disputes")
                .header("Authorization", "Bearer " + MERCHANT_KEY).exchange().expectStatus().isOk()
                .expectBody(String.class).returnResult().getResponseBody()).get("data");
    }

    private JsonNode onlyDisputeOf(String paymentId) {
        JsonNode disputes = disputesOf(paymentId);
        assertThat(disputes).hasSize(1);
        return disputes.get(0);
    }

    private String disputeStatus(String paymentId) {
        JsonNode disputes = disputesOf(paymentId);
        return disputes.isEmpty() ? null : onlyDisputeOf(paymentId).get("status").textValue();
    }

    private long amountDisputed(String paymentId) {
        return JSON.readTree(client.get().uri("/v1/payments/" + paymentId)
                .header("Authorization", "Bearer " + MERCHANT_KEY).exchange().expectStatus().isOk()
                .expectBody(String.class).returnResult().getResponseBody()).get("amountDisputed").longValue();
    }

    private long events(String paymentId, String type) {
        return count("select count(*) from events where payment_id = $1 and type = $2", paymentId, type);
    }

    private double signatureFailures() {
        var counter = meters.find("payments.webhook.signature.failures").tag("connector", "adyen").counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void aNoticeOfChargebackOpensTheDisputeAChargebackLosesItAReversalWinsItAndASecondChargebackLosesIt() {
        JsonNode payment = completed();
        String id = payment.get("id").textValue();
        String psp = payment.get("connectorReference").textValue();

        deliver(List.of(chargeback(payment, "NOTIFICATION_OF_CHARGEBACK", "10.4")));
        await().atMost(WAIT).untilAsserted(() -> assertThat(disputeStatus(id)).isEqualTo("OPEN"));
        JsonNode opened = onlyDisputeOf(id);
        assertThat(opened.get("connector").textValue()).isEqualTo("adyen");
        assertThat(opened.get("connectorReference").textValue()).as("the disputed payment's pspReference")
                .isEqualTo(psp);
        assertThat(opened.get("amount").longValue()).isEqualTo(1000);
        assertThat(opened.get("currency").textValue()).isEqualTo("EUR");
        assertThat(opened.get("reason").textValue()).isEqualTo("10.4");
        assertThat(Instant.parse(opened.get("evidenceDueBy").textValue()))
                .isEqualTo(OffsetDateTime.parse(FakeAdyen.DEFENSE_PERIOD_ENDS_AT).toInstant());
        assertThat(amountDisputed(id)).isEqualTo(1000);
        assertThat(statusOf(id)).as("a dispute is not the charge's outcome").isEqualTo("COMPLETED");

        deliver(List.of(chargeback(payment, "CHARGEBACK", "10.4")));
        await().atMost(WAIT).untilAsserted(() -> assertThat(disputeStatus(id)).isEqualTo("LOST"));
        assertThat(amountDisputed(id)).isEqualTo(1000);

        deliver(List.of(chargeback(payment, "CHARGEBACK_REVERSED", "10.4")));
        await().atMost(WAIT).untilAsserted(() -> assertThat(disputeStatus(id)).isEqualTo("WON"));
        assertThat(amountDisputed(id)).isZero();

        deliver(List.of(chargeback(payment, "SECOND_CHARGEBACK", "10.4")));
        await().atMost(WAIT).untilAsserted(() -> assertThat(disputeStatus(id)).isEqualTo("LOST"));
        assertThat(amountDisputed(id)).isEqualTo(1000);
        assertThat(events(id, "dispute.opened")).isEqualTo(1);
        assertThat(events(id, "dispute.lost")).isEqualTo(2);
        assertThat(events(id, "dispute.won")).isEqualTo(1);
        assertThat(statusOf(id)).isEqualTo("COMPLETED");
    }

    @Test
    void anItemDeliveredTwiceIsAppliedOnce() {
        JsonNode payment = completed();
        String id = payment.get("id").textValue();
        Map<String, Object> notice = chargeback(payment, "NOTIFICATION_OF_CHARGEBACK", "13.1");

        deliver(List.of(notice));
        deliver(List.of(notice, notice));

        await().atMost(WAIT).untilAsserted(() -> assertThat(disputeStatus(id)).isEqualTo("OPEN"));
        assertThat(events(id, "dispute.opened")).isEqualTo(1);
        assertThat(count("select count(*) from dispute_reports where report_id like $1",
                "adyen:" + notice.get("pspReference") + ":%")).isEqualTo(1);
        assertThat(amountDisputed(id)).isEqualTo(1000);
    }

    @Test
    void aChargebackBeforeItsNoticeLosesTheDisputeAndTheLateNoticeDoesNotReopenIt() {
        JsonNode payment = completed();
        String id = payment.get("id").textValue();
        Map<String, Object> notice = chargeback(payment, "NOTIFICATION_OF_CHARGEBACK", "10.4");
        Map<String, Object> chargeback = chargeback(payment, "CHARGEBACK", "10.4");

        deliver(List.of(chargeback));
        await().atMost(WAIT).untilAsserted(() -> assertThat(disputeStatus(id)).isEqualTo("LOST"));
        deliver(List.of(notice));

        await().atMost(WAIT).untilAsserted(() -> assertThat(count(
                "select count(*) from dispute_reports where report_id = $1",
                "adyen:" + notice.get("pspReference") + ":NOTIFICATION_OF_CHARGEBACK:true")).isEqualTo(1));
        assertThat(disputeStatus(id)).isEqualTo("LOST");
        assertThat(events(id, "dispute.opened")).isEqualTo(1);
        assertThat(events(id, "dispute.lost")).isEqualTo(1);
        assertThat(amountDisputed(id)).isEqualTo(1000);
    }

    @Test
    void aChargebackOfAPaymentAdyenNeverTookForUsIsAcknowledgedAndRecordsNothing() {
        long disputes = count("select count(*) from disputes");
        long reports = count("select count(*) from dispute_reports");
        Map<String, Object> unknown = new HashMap<>(Map.of("eventCode", "NOTIFICATION_OF_CHARGEBACK",
                "pspReference", "9915999999999901", "originalReference", "8815999999999901",
                "merchantReference", "pay_unknown", "success", true, "value", 1000L, "currency", "EUR",
                "reason", ""));
        unknown.put("additionalData", Map.of("chargebackReasonCode", "10.4"));

        deliver(List.of(unknown));

        assertThat(count("select count(*) from disputes")).isEqualTo(disputes);
        assertThat(count("select count(*) from dispute_reports")).isEqualTo(reports);
        assertThat(count("select count(*) from webhook_receipts where webhook_id = $1 and outcome = 'ignored'"
                + " and payment_id is null",
                "foreign:adyen:" + MERCHANT + ":adyen:9915999999999901:NOTIFICATION_OF_CHARGEBACK:true"))
                .as("only the pipeline's receipt of an item it could bind to no payment").isEqualTo(1);
    }

    @Test
    void aForgedChargebackIsCountedAndNotApplied() {
        JsonNode payment = completed();
        String id = payment.get("id").textValue();
        Map<String, Object> forged = new HashMap<>(chargeback(payment, "CHARGEBACK", "10.4"));
        forged.put("signWith", FORGED_KEY);
        double before = signatureFailures();

        deliver(List.of(forged));

        assertThat(signatureFailures()).isEqualTo(before + 1);
        assertThat(disputesOf(id)).isEmpty();
        assertThat(amountDisputed(id)).isZero();
        assertThat(count("select count(*) from dispute_reports where report_id like $1",
                "adyen:" + forged.get("pspReference") + ":%")).isZero();
    }
}
