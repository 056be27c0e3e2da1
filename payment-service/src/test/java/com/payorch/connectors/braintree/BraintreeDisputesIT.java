package com.payorch.connectors.braintree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.payorch.fakes.FakeBraintree;
import com.payorch.testsupport.ApiTest;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Braintree's dispute webhooks end to end: a sale made through {@link FakeBraintree}, then the signed dispute
 * notifications Braintree posts about it (shaped as the SDK's `WebhookTestingGateway` samples), through the webhook
 * pipeline into the payment's dispute.
 */
@TestPropertySource(properties = {
        "payments.merchants.treedisputes.api-key=sk_test_treedisputes",
        "payments.merchants.treedisputes.connectors.braintree.merchant-id=" + BraintreeDisputesIT.BT_MERCHANT,
        "payments.merchants.treedisputes.connectors.braintree.public-key=" + BraintreeDisputesIT.PUBLIC_KEY,
        "payments.merchants.treedisputes.connectors.braintree.private-key=" + BraintreeDisputesIT.PRIVATE_KEY,
        "payments.merchants.treedisputes.routing=braintree",
        "payments.recovery.processing-after=PT1H",
        "payments.gateway.sandbox.webhook-delay=PT1H",
        "spring.r2dbc.properties.schema=braintree_disputes_tests",
        "spring.flyway.schemas=braintree_disputes_tests",
        "spring.flyway.default-schema=braintree_disputes_tests"})
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class BraintreeDisputesIT extends ApiTest {

    static final String BT_MERCHANT = "bt_payorch_disputes";
    static final String PUBLIC_KEY = "pub_FakeBraintreeDisputesKey01";
    static final String PRIVATE_KEY = "priv_FakeBraintreeDisputesKeyDoNotLog01";

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final FakeBraintree BRAINTREE = new FakeBraintree()
            .acceptKeys(BT_MERCHANT, PUBLIC_KEY, PRIVATE_KEY);

    @Autowired
    MeterRegistry meters;

    @DynamicPropertySource
    static void fake(DynamicPropertyRegistry registry) {
        registry.add("payments.connectors.braintree.base-url", BRAINTREE::baseUrl);
    }

    @AfterAll
    static void stopFake() {
        BRAINTREE.close();
    }

    /** A completed Braintree payment: its id and its sale's id. */
    private String[] paidSale() {
        JsonNode payment = JSON.readTree(postPayment("sk_test_treedisputes", unique("key"), """
                {"bookingId": "%s", "amount": 1000, "currency": "EUR", "paymentMethod": "%s"}"""
                .formatted(unique("bk"), unique("fake-valid-nonce"))).exchange().expectStatus().isCreated()
                .expectBody(String.class).returnResult().getResponseBody());
        assertThat(payment.get("status").textValue()).isEqualTo("COMPLETED");
        return new String[] {payment.get("id").textValue(), payment.get("connectorReference").textValue()};
    }

    private WebTestClient.ResponseSpec webhook(String form) {
        return client.post().uri("/v1/webhooks/braintree/treedisputes")
                .header("Content-Type", "application/x-www-form-urlencoded").bodyValue(form).exchange();
    }

    private String dispute(String kind, String disputeId, String sale) {
        return BRAINTREE.disputeWebhook(kind, disputeId, sale, PUBLIC_KEY, PRIVATE_KEY);
    }

    private String disputeColumn(String column, String disputeId) {
        return db.sql("select " + column + "::text from disputes where connector = 'braintree'"
                        + " and connector_reference = $1").bind(0, disputeId)
                .map(row -> row.get(0, String.class)).one().block(Duration.ofSeconds(10));
    }

    private long amountDisputed(String paymentId) {
        return count("select amount_disputed from payments where id = $1", paymentId);
    }

    private long events(String type, String paymentId) {
        return count("select count(*) from events where type = $1 and payment_id = $2", type, paymentId);
    }

    @Test
    void anOpenedDisputeIsOpenThenLostThenWonWhenReversed() {
        String[] paid = paidSale();
        String disputeId = unique("dsp");

        webhook(dispute("dispute_opened", disputeId, paid[1])).expectStatus().isOk().expectBody()
                .jsonPath("$.status").isEqualTo("applied");

        assertThat(disputeColumn("status", disputeId)).isEqualTo("OPEN");
        assertThat(disputeColumn("payment_id", disputeId)).isEqualTo(paid[0]);
        assertThat(disputeColumn("attempt", disputeId)).isEqualTo("1");
        assertThat(disputeColumn("amount", disputeId)).isEqualTo("1000");
        assertThat(disputeColumn("currency", disputeId)).isEqualTo("EUR");
        assertThat(disputeColumn("reason", disputeId)).isEqualTo("fraud");
        assertThat(disputeColumn("evidence_due_by", disputeId)).isNotNull();
        assertThat(amountDisputed(paid[0])).isEqualTo(1000);
        assertThat(events("dispute.opened", paid[0])).isEqualTo(1);

        webhook(dispute("dispute_lost", disputeId, paid[1])).expectStatus().isOk();

        assertThat(disputeColumn("status", disputeId)).isEqualTo("LOST");
        assertThat(amountDisputed(paid[0])).isEqualTo(1000);
        assertThat(events("dispute.lost", paid[0])).isEqualTo(1);

        webhook(dispute("dispute_won", disputeId, paid[1])).expectStatus().isOk();

        assertThat(disputeColumn("status", disputeId)).isEqualTo("WON");
        assertThat(amountDisputed(paid[0])).isZero();
        assertThat(events("dispute.won", paid[0])).isEqualTo(1);
        assertThat(statusOf(paid[0])).isEqualTo("COMPLETED");
    }

    @Test
    void aRedeliveredNotificationIsOneReport() {
        String[] paid = paidSale();
        String disputeId = unique("dsp");
        String opened = dispute("dispute_opened", disputeId, paid[1]);

        webhook(opened).expectStatus().isOk();
        webhook(opened).expectStatus().isOk().expectBody().jsonPath("$.status").isEqualTo("duplicate");

        assertThat(count("select count(*) from disputes where payment_id = $1", paid[0])).isEqualTo(1);
        assertThat(count("select count(*) from dispute_reports where connector = 'braintree' and report_id like $1",
                "braintree:dispute_opened:" + disputeId + ":%")).isEqualTo(1);
        assertThat(events("dispute.opened", paid[0])).isEqualTo(1);
        assertThat(amountDisputed(paid[0])).isEqualTo(1000);
    }

    @Test
    void aLossReportedBeforeTheOpeningStaysLost() {
        String[] paid = paidSale();
        String disputeId = unique("dsp");

        webhook(dispute("dispute_lost", disputeId, paid[1])).expectStatus().isOk();
        webhook(dispute("dispute_opened", disputeId, paid[1])).expectStatus().isOk();

        assertThat(disputeColumn("status", disputeId)).isEqualTo("LOST");
        assertThat(count("select count(*) from disputes where payment_id = $1", paid[0])).isEqualTo(1);
        assertThat(events("dispute.lost", paid[0])).isEqualTo(1);
        assertThat(amountDisputed(paid[0])).isEqualTo(1000);
    }

    @Test
    void aDisputeOfASaleTheServiceDidNotMakeIsAcknowledgedAndNothingIsRecorded() {
        String disputeId = unique("dsp");
        String form = FakeBraintree.form(FakeBraintree.notification("dispute_opened",
                FakeBraintree.disputeXml(disputeId, "dispute_opened", unique("nosale"), unique("pay"), "10.00", "EUR"),
                PUBLIC_KEY, PRIVATE_KEY));

        webhook(form).expectStatus().isOk().expectBody().jsonPath("$.status").isEqualTo("ignored");

        assertThat(count("select count(*) from disputes where connector_reference = $1", disputeId)).isZero();
        assertThat(count("select count(*) from dispute_reports where report_id like $1",
                "braintree:dispute_opened:" + disputeId + ":%")).isZero();
    }

    @Test
    void aDisputeSignedWithAnotherKeyIsRefusedAndCounted() {
        String[] paid = paidSale();
        String disputeId = unique("dsp");
        Counter failures = meters.counter("payments.webhook.signature.failures", "connector", "braintree");
        double before = failures.count();
        long keptBefore = count("select count(*) from webhook_signature_failures where connector = 'braintree'");

        webhook(BRAINTREE.disputeWebhook("dispute_opened", disputeId, paid[1], PUBLIC_KEY,
                "priv_NotTheMerchantsKey")).expectStatus().isUnauthorized();

        assertThat(failures.count()).isEqualTo(before + 1);
        // The adapter records the failure in the background (it cannot wait): the row may land after the answer.
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(
                count("select count(*) from webhook_signature_failures where connector = 'braintree'"))
                .isEqualTo(keptBefore + 1));
        assertThat(count("select count(*) from disputes where connector_reference = $1", disputeId)).isZero();
        assertThat(amountDisputed(paid[0])).isZero();
    }
}
