package com.payorch.connectors.braintree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.payorch.fakes.FakeBraintree;
import com.payorch.fakes.FakeStripe;
import com.payorch.gateway.ChargeRequest;
import com.payorch.gateway.Connector;
import com.payorch.gateway.ConnectorRefusedException;
import com.payorch.gateway.GatewayException;
import com.payorch.gateway.GatewayOutcome;
import com.payorch.gateway.GatewayStatus;
import com.payorch.gateway.GatewayUnavailableException;
import com.payorch.gateway.RefundOutcome;
import com.payorch.gateway.RefundRequest;
import com.payorch.testsupport.ApiTest;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
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
import reactor.core.scheduler.Schedulers;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Braintree against {@link FakeBraintree}: the gateway (submit, same-key resubmit, look-up, refund and its resend,
 * every failure kind) and the service end to end (create, settlement webhook and its duplicate, refund, failover
 * into Braintree after Stripe refused and out of it when Braintree refuses connections or the keys).
 */
@TestPropertySource(properties = {
        "payments.merchants.treey.api-key=sk_test_treey",
        "payments.merchants.treey.connectors.braintree.merchant-id=" + BraintreeConnectorIT.BT_MERCHANT,
        "payments.merchants.treey.connectors.braintree.public-key=" + BraintreeConnectorIT.PUBLIC_KEY,
        "payments.merchants.treey.connectors.braintree.private-key=" + BraintreeConnectorIT.PRIVATE_KEY,
        "payments.merchants.treey.routing=braintree",
        "payments.merchants.treefail.api-key=sk_test_treefail",
        "payments.merchants.treefail.connectors.braintree.merchant-id=" + BraintreeConnectorIT.BT_MERCHANT,
        "payments.merchants.treefail.connectors.braintree.public-key=" + BraintreeConnectorIT.PUBLIC_KEY,
        "payments.merchants.treefail.connectors.braintree.private-key=" + BraintreeConnectorIT.PRIVATE_KEY,
        "payments.merchants.treefail.routing=braintree,sandbox",
        "payments.merchants.treerevoked.api-key=sk_test_treerevoked",
        "payments.merchants.treerevoked.connectors.braintree.merchant-id=" + BraintreeConnectorIT.BT_MERCHANT,
        "payments.merchants.treerevoked.connectors.braintree.public-key=" + BraintreeConnectorIT.PUBLIC_KEY,
        "payments.merchants.treerevoked.connectors.braintree.private-key=" + BraintreeConnectorIT.REVOKED_KEY,
        "payments.merchants.treerevoked.routing=braintree,sandbox",
        "payments.merchants.stripetree.api-key=sk_test_stripetree",
        "payments.merchants.stripetree.connectors.stripe.secret-key=" + BraintreeConnectorIT.REVOKED_STRIPE,
        "payments.merchants.stripetree.connectors.braintree.merchant-id=" + BraintreeConnectorIT.BT_MERCHANT,
        "payments.merchants.stripetree.connectors.braintree.public-key=" + BraintreeConnectorIT.PUBLIC_KEY,
        "payments.merchants.stripetree.connectors.braintree.private-key=" + BraintreeConnectorIT.PRIVATE_KEY,
        "payments.merchants.stripetree.routing=stripe,braintree",
        // No test here needs a read time-out (a lost answer is a closed connection), so the default (PT8S) stays:
        // a cold fake on a loaded 2-core machine took seconds to answer its first requests.
        "payments.recovery.pending-after=PT1S",
        "payments.recovery.processing-after=PT1H",
        "payments.recovery.interval=PT0.2S",
        "payments.gateway.sandbox.webhook-delay=PT1H",
        "spring.r2dbc.properties.schema=braintree_tests",
        "spring.flyway.schemas=braintree_tests",
        "spring.flyway.default-schema=braintree_tests"})
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@ExtendWith(OutputCaptureExtension.class)
class BraintreeConnectorIT extends ApiTest {

    static final String BT_MERCHANT = "bt_payorch_test";
    static final String PUBLIC_KEY = "pub_FakeBraintreePublicKey01";
    static final String PRIVATE_KEY = "priv_FakeBraintreePrivateKeyDoNotLog01";
    static final String REVOKED_KEY = "priv_RevokedBraintreeKeyDoNotLog02";
    static final String REVOKED_STRIPE = "sk_test_51RevokedStripeKeyOfStripetreeDoNotLog";

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final FakeBraintree BRAINTREE = new FakeBraintree()
            .acceptKeys(BT_MERCHANT, PUBLIC_KEY, PRIVATE_KEY);
    /** Accepts no key: every request of the stripetree merchant is a 401. */
    private static final FakeStripe STRIPE = new FakeStripe(10_000);

    @Autowired
    List<Connector> connectors;

    private BraintreeGateway gateway;

    @BeforeEach
    void theBraintreeGateway() {
        gateway = (BraintreeGateway) connectors.stream().filter(c -> c.name().equals(BraintreeGateway.NAME))
                .findFirst().orElseThrow().gateway();
    }

    @DynamicPropertySource
    static void fakes(DynamicPropertyRegistry registry) {
        registry.add("payments.connectors.braintree.base-url", BRAINTREE::baseUrl);
        registry.add("payments.connectors.stripe.api-base", STRIPE::baseUrl);
    }

    @AfterAll
    static void stopFakes() {
        BRAINTREE.close();
        STRIPE.close();
    }

    private WebTestClient.ResponseSpec create(String apiKey, String key, String booking, String nonce) {
        return postPayment(apiKey, key, """
                {"bookingId": "%s", "amount": 1000, "currency": "EUR", "paymentMethod": "%s"}"""
                .formatted(booking, nonce)).exchange();
    }

    private JsonNode created(String apiKey, String nonce) {
        return JSON.readTree(create(apiKey, unique("key"), unique("bk"), nonce).expectStatus().isCreated()
                .expectBody(String.class).returnResult().getResponseBody());
    }

    private WebTestClient.ResponseSpec webhook(String merchant, String form) {
        return client.post().uri("/v1/webhooks/braintree/" + merchant)
                .header("Content-Type", "application/x-www-form-urlencoded").bodyValue(form).exchange();
    }

    private String paymentOf(String booking) {
        return db.sql("select id from payments where booking_id = $1").bind(0, booking)
                .map(row -> row.get(0, String.class)).one().block(Duration.ofSeconds(10));
    }

    private String column(String sql, String id) {
        return db.sql(sql).bind(0, id).map(row -> row.get(0, String.class)).one().block(Duration.ofSeconds(10));
    }

    private static ChargeRequest charge(String paymentId, String nonce) {
        return new ChargeRequest(paymentId, 1, 1000, "EUR", nonce, "treey", BraintreeGateway.NAME);
    }

    // ---- the gateway against the fake ----

    @Test
    void aSubmitIsOneSaleSubmittedForSettlementAndTheSameKeyAgainFindsItInsteadOfASecond() {
        ChargeRequest request = charge(unique("pay"), unique("fake-valid-nonce"));

        GatewayOutcome first = gateway.submit(request).block(Duration.ofSeconds(10));
        GatewayOutcome again = gateway.submit(request).block(Duration.ofSeconds(10));

        assertThat(first.status()).isEqualTo(GatewayStatus.SUCCEEDED);
        assertThat(again).isEqualTo(first);
        List<Map<String, Object>> made = BRAINTREE.withOrderId(request.idempotencyKey());
        assertThat(made).hasSize(1);
        assertThat(made.get(0)).containsEntry("id", first.reference()).containsEntry("type", "sale")
                .containsEntry("amount", "10.00").containsEntry("status", "submitted_for_settlement");
        assertThat(gateway.find(request).block(Duration.ofSeconds(10))).isEqualTo(first);
        assertThat(gateway.find(charge(unique("pay"), "fake-valid-nonce")).blockOptional(Duration.ofSeconds(10)))
                .isEmpty();
    }

    @Test
    void aSecondAttemptIsItsOwnSaleUnderItsOwnOrderId() {
        String paymentId = unique("pay");
        ChargeRequest second = new ChargeRequest(paymentId, 2, 1000, "EUR", unique("fake-valid-nonce"), "treey",
                BraintreeGateway.NAME);

        GatewayOutcome outcome = gateway.submit(second).block(Duration.ofSeconds(10));

        assertThat(BRAINTREE.withOrderId(paymentId + "-attempt-2")).extracting(t -> t.get("id"))
                .containsExactly(outcome.reference());
        assertThat(BraintreeWebhooks.paymentId(paymentId + "-attempt-2")).isEqualTo(paymentId);
    }

    @Test
    void declinesAndRejectionsAreFailedWithBraintreesReason() {
        GatewayOutcome declined = gateway.submit(charge(unique("pay"), unique("fake-processor-declined-visa-nonce")))
                .block(Duration.ofSeconds(10));
        GatewayOutcome rejected = gateway.submit(charge(unique("pay"), unique("fake-gateway-rejected-fraud-nonce")))
                .block(Duration.ofSeconds(10));

        assertThat(declined.status()).isEqualTo(GatewayStatus.FAILED);
        assertThat(declined.failureReason()).isEqualTo("processor_declined: 2000 Do Not Honor");
        assertThat(rejected.status()).isEqualTo(GatewayStatus.FAILED);
        assertThat(rejected.failureReason()).isEqualTo("gateway_rejected: fraud");
    }

    @Test
    void aRefundIsOneCreditOfTheSettledSaleAndTheSameRefundAgainFindsIt() {
        ChargeRequest charge = charge(unique("pay"), unique("fake-valid-nonce"));
        String sale = gateway.submit(charge).block(Duration.ofSeconds(10)).reference();
        RefundRequest refund = new RefundRequest(unique("re"), charge.paymentId(), 1, sale, 400, "EUR", "treey",
                BraintreeGateway.NAME);

        assertThatThrownBy(() -> gateway.refund(refund).block(Duration.ofSeconds(10)))
                .isInstanceOf(ConnectorRefusedException.class)
                .hasMessageContaining("TRANSACTION_CANNOT_REFUND_UNLESS_SETTLED");
        BRAINTREE.settle(sale);
        RefundOutcome first = gateway.refund(refund).block(Duration.ofSeconds(10));
        RefundOutcome again = gateway.refund(refund).block(Duration.ofSeconds(10));

        assertThat(first.status()).isEqualTo(GatewayStatus.SUCCEEDED);
        assertThat(again).isEqualTo(first);
        List<Map<String, Object>> credits = BRAINTREE.refundsOf(sale);
        assertThat(credits).hasSize(1);
        assertThat(credits.get(0)).containsEntry("id", first.reference()).containsEntry("order-id", refund.refundId())
                .containsEntry("amount", "4.00").containsEntry("type", "credit");
        assertThat(gateway.findRefund(refund).block(Duration.ofSeconds(10))).isEqualTo(first);
    }

    @Test
    void aRefusedConnectionIsNotSent() throws IOException {
        int closed;
        try (ServerSocket socket = new ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        BraintreeSettings settings = new BraintreeSettings();
        settings.setBaseUrl(URI.create("http://127.0.0.1:" + closed));
        BraintreeGateway nowhere = new BraintreeGateway(settings, accounts(), Schedulers.boundedElastic());

        assertThatThrownBy(() -> nowhere.submit(charge(unique("pay"), "fake-valid-nonce")).block(Duration.ofSeconds(10)))
                .isInstanceOf(GatewayUnavailableException.class).isNotInstanceOf(ConnectorRefusedException.class)
                .hasMessageContaining("not sent");
    }

    @Test
    void a401IsARefusalAndNamesNoKey() {
        String nonce = unique("fake-valid-nonce");
        BRAINTREE.failNext(nonce, FakeBraintree.Failure.UNAUTHORIZED);
        ChargeRequest request = charge(unique("pay"), nonce);

        assertThatThrownBy(() -> gateway.submit(request).block(Duration.ofSeconds(10)))
                .isInstanceOf(ConnectorRefusedException.class)
                .hasMessageNotContaining(PRIVATE_KEY).hasMessageNotContaining(PUBLIC_KEY);
        assertThat(BRAINTREE.withOrderId(request.idempotencyKey())).isEmpty();
    }

    @Test
    void a5xxIsAmbiguous() {
        String nonce = unique("fake-valid-nonce");
        BRAINTREE.failNext(nonce, FakeBraintree.Failure.ERROR_500_BEFORE_CHARGE);

        assertThatThrownBy(() -> gateway.submit(charge(unique("pay"), nonce)).block(Duration.ofSeconds(10)))
                .isInstanceOf(GatewayException.class).isNotInstanceOf(GatewayUnavailableException.class);
    }

    @Test
    void aLostAnswerIsAmbiguousAndTheResubmitFindsTheOneSale() {
        String nonce = unique("fake-valid-nonce");
        BRAINTREE.failNext(nonce, FakeBraintree.Failure.LOSE_RESPONSE_AFTER_CHARGE);
        ChargeRequest request = charge(unique("pay"), nonce);

        assertThatThrownBy(() -> gateway.submit(request).block(Duration.ofSeconds(10)))
                .isInstanceOf(GatewayException.class).isNotInstanceOf(GatewayUnavailableException.class);
        GatewayOutcome resubmitted = gateway.submit(request).block(Duration.ofSeconds(10));

        assertThat(BRAINTREE.withOrderId(request.idempotencyKey())).extracting(t -> t.get("id"))
                .containsExactly(resubmitted.reference());
        assertThat(resubmitted.status()).isEqualTo(GatewayStatus.SUCCEEDED);
    }

    @Test
    void aMerchantWithoutBraintreeKeysIsRefused() {
        ChargeRequest request = new ChargeRequest(unique("pay"), 1, 1000, "EUR", "fake-valid-nonce", "demo",
                BraintreeGateway.NAME);

        assertThatThrownBy(() -> gateway.submit(request).block(Duration.ofSeconds(10)))
                .isInstanceOf(ConnectorRefusedException.class);
    }

    private static BraintreeAccounts accounts() {
        BraintreeAccounts.Account account = new BraintreeAccounts.Account();
        account.setMerchantId(BT_MERCHANT);
        account.setPublicKey(PUBLIC_KEY);
        account.setPrivateKey(PRIVATE_KEY);
        BraintreeAccounts.Merchant merchant = new BraintreeAccounts.Merchant();
        merchant.getConnectors().setBraintree(account);
        BraintreeAccounts accounts = new BraintreeAccounts();
        accounts.setMerchants(Map.of("treey", merchant));
        return accounts;
    }

    // ---- end to end through the service ----

    @Test
    void aPaymentRoutedToBraintreeCompletesWithOneSale() {
        JsonNode payment = created("sk_test_treey", unique("fake-valid-nonce"));
        String id = payment.get("id").textValue();

        assertThat(payment.get("status").textValue()).isEqualTo("COMPLETED");
        assertThat(payment.get("connector").textValue()).isEqualTo("braintree");
        List<Map<String, Object>> made = BRAINTREE.withOrderId(id);
        assertThat(made).hasSize(1);
        assertThat(payment.get("connectorReference").textValue()).isEqualTo(made.get(0).get("id"));
    }

    @Test
    void aSettlementPendingSaleIsCompletedByItsSignedWebhookOnceAndAForgedOneIsRefused() {
        JsonNode payment = created("sk_test_treey", unique("fake-settlement-pending-nonce"));
        String id = payment.get("id").textValue();
        String sale = payment.get("connectorReference").textValue();
        assertThat(payment.get("status").textValue()).isEqualTo("PROCESSING");
        BRAINTREE.settle(sale);

        webhook("treey", BRAINTREE.webhook("transaction_settled", sale, PUBLIC_KEY, "priv_NotTheMerchantsKey"))
                .expectStatus().isUnauthorized();
        assertThat(statusOf(id)).isEqualTo("PROCESSING");
        String settled = BRAINTREE.webhook("transaction_settled", sale, PUBLIC_KEY, PRIVATE_KEY);
        webhook("treey", settled).expectStatus().isOk().expectBody().jsonPath("$.status").isEqualTo("applied");
        assertThat(statusOf(id)).isEqualTo("COMPLETED");
        webhook("treey", settled).expectStatus().isOk().expectBody().jsonPath("$.status").isEqualTo("duplicate");

        assertThat(count("select count(*) from webhook_receipts where webhook_id = $1",
                "braintree:transaction_settled:" + sale)).isEqualTo(1);
        assertThat(count("select count(*) from payment_transitions where payment_id = $1 and event = 'SUCCEED'", id))
                .isEqualTo(1);
    }

    @Test
    void aDeclinedSettlementFailsThePaymentWithItsReason() {
        JsonNode payment = created("sk_test_treey", unique("fake-settlement-pending-nonce"));
        String id = payment.get("id").textValue();
        String sale = payment.get("connectorReference").textValue();
        BRAINTREE.declineSettlement(sale);

        webhook("treey", BRAINTREE.webhook("transaction_settlement_declined", sale, PUBLIC_KEY, PRIVATE_KEY))
                .expectStatus().isOk().expectBody().jsonPath("$.status").isEqualTo("applied");

        assertThat(statusOf(id)).isEqualTo("FAILED");
        assertThat(column("select failure_reason from payments where id = $1", id))
                .isEqualTo("settlement_declined: 4001 Settlement Declined");
    }

    @Test
    void unknownMerchantsAndMerchantsWithoutBraintreeAre404() {
        String form = BRAINTREE.webhook("check", null, PUBLIC_KEY, PRIVATE_KEY);
        webhook("nobody", form).expectStatus().isNotFound().expectBody().jsonPath("$.code").isEqualTo("not_found");
        webhook("demo", form).expectStatus().isNotFound();
    }

    @Test
    void aBraintreeRefundIsOneCreditKeyedByTheRefundId() {
        JsonNode payment = created("sk_test_treey", unique("fake-valid-nonce"));
        String id = payment.get("id").textValue();
        String sale = payment.get("connectorReference").textValue();
        BRAINTREE.settle(sale);

        JsonNode refund = JSON.readTree(client.post().uri("/v1/payments/" + id + "/refunds")
                .header("Authorization", "Bearer sk_test_treey").header("Idempotency-Key", unique("rk"))
                .header("Content-Type", "application/json").bodyValue("{\"amount\": 400}")
                .exchange().expectStatus().isCreated().expectBody(String.class).returnResult().getResponseBody());
        String refundId = refund.get("id").textValue();

        assertThat(refund.get("connector").textValue()).isEqualTo("braintree");
        Awaitility.await().atMost(Duration.ofSeconds(20))
                .until(() -> count("select count(*) from refunds where id = $1 and status = 'SUCCEEDED'", refundId) == 1);
        List<Map<String, Object>> credits = BRAINTREE.refundsOf(sale);
        assertThat(credits).hasSize(1);
        assertThat(credits.get(0)).containsEntry("order-id", refundId).containsEntry("amount", "4.00");
        assertThat(count("select amount_refunded from payments where id = $1", id)).isEqualTo(400);
    }

    @Test
    void aPaymentFailsOverIntoBraintreeWhenStripeRefuses() {
        String booking = unique("bk");
        create("sk_test_stripetree", unique("key"), booking, unique("fake-valid-nonce")).expectStatus()
                .is2xxSuccessful();
        String id = paymentOf(booking);

        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> "COMPLETED".equals(statusOf(id)));
        assertThat(column("select p.connector || '/' || a.connector from payments p join payment_attempts a"
                + " on a.payment_id = p.id where p.id = $1", id)).isEqualTo("braintree/braintree");
        assertThat(STRIPE.intentsFor(id)).isZero();
        assertThat(BRAINTREE.withOrderId(id)).hasSize(1);
    }

    @Test
    void aPaymentFailsOverOutOfBraintreeWhenItRefusesConnections() {
        String booking = unique("bk");
        BRAINTREE.refuseConnections();
        try {
            create("sk_test_treefail", unique("key"), booking, unique("fake-valid-nonce")).expectStatus()
                    .is2xxSuccessful();
            String id = paymentOf(booking);

            Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> "PROCESSING".equals(statusOf(id)));
            assertThat(column("select p.connector || '/' || a.connector from payments p join payment_attempts a"
                    + " on a.payment_id = p.id where p.id = $1", id)).isEqualTo("sandbox/sandbox");
            assertThat(count("select count(*) from sandbox_charges where payment_id = $1", id)).isEqualTo(1);
        } finally {
            BRAINTREE.acceptConnections();
        }
        assertThat(BRAINTREE.withOrderId(paymentOf(booking))).isEmpty();
    }

    @Test
    void revokedBraintreeKeysFailOverToTheNextConnectorAndAreNeverLogged(CapturedOutput output) {
        String booking = unique("bk");
        HttpStatus status = HttpStatus.valueOf(create("sk_test_treerevoked", unique("key"), booking,
                unique("fake-valid-nonce")).expectStatus().is2xxSuccessful().returnResult(String.class).getStatus()
                .value());
        String id = paymentOf(booking);

        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> "PROCESSING".equals(statusOf(id)));
        assertThat(status.is2xxSuccessful()).isTrue();
        assertThat(column("select connector from payments where id = $1", id)).isEqualTo("sandbox");
        assertThat(BRAINTREE.withOrderId(id)).isEmpty();
        assertThat(output.getAll()).doesNotContain(REVOKED_KEY).doesNotContain(PRIVATE_KEY);
    }
}
