package com.payorch.connectors.stripe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.payorch.gateway.ConnectorNotification;
import com.payorch.gateway.DisputeNotice;
import com.payorch.gateway.GatewayStatus;
import com.payorch.webhooks.WebhookInvalid;
import java.time.Instant;
import java.util.List;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Stripe's `charge.dispute.*` events as {@link StripeDisputes} reads them; the Dispute is shaped as
 * `stripe/openapi`'s `fixtures3.json` `resources.dispute` (its ids, our PaymentIntent).
 */
class StripeDisputesTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Instant NOW = Instant.parse("2026-12-05T12:00:00Z");

    private static String dispute(String paymentIntent, long amount, String currency, String status) {
        return """
                {"amount": %d, "balance_transactions": [], "charge": "ch_1PgafuB7WZ01zgkWXYmPNZs8",
                 "created": 1234567890, "currency": "%s",
                 "evidence": {"access_activity_log": null, "uncategorized_text": null, "enhanced_evidence": {}},
                 "evidence_details": {"due_by": 1723679999, "has_evidence": false, "past_due": false,
                                      "submission_count": 0, "enhanced_eligibility": {}},
                 "id": "dp_1Pgc71B7WZ01zgkWMevJiAUx", "is_charge_refundable": true, "livemode": false,
                 "metadata": {}, "object": "dispute", "payment_intent": %s,
                 "payment_method_details": {"card": {"brand": "visa", "case_type": "chargeback",
                                            "network_reason_code": "10.4", "network": "visa"}, "type": "card"},
                 "reason": "fraudulent", "status": "%s", "enhanced_eligibility_types": []}"""
                .formatted(amount, currency, paymentIntent, status);
    }

    private static JsonNode event(String type, String object) {
        return JSON.readTree("""
                {"id": "evt_1", "object": "event", "api_version": "2025-01-27.acacia", "created": 1764936000,
                 "data": {"object": %s}, "livemode": false, "pending_webhooks": 1, "type": "%s"}"""
                .formatted(object, type));
    }

    private static List<ConnectorNotification> read(String type, String object) {
        return StripeDisputes.notifications("evt_1", type, event(type, object), NOW);
    }

    @Test
    void aCreatedDisputeIsOpenedAboutThePaymentIntentWithItsAmountReasonAndEvidenceDueDate() {
        ConnectorNotification opened = read("charge.dispute.created",
                dispute("\"pi_3Abc\"", 1000, "usd", "needs_response")).get(0);

        assertThat(opened.isAboutADispute()).isTrue();
        assertThat(opened.receiptId()).isEqualTo("evt_1");
        assertThat(opened.type()).isEqualTo("charge.dispute.created");
        assertThat(opened.reference()).isEqualTo("pi_3Abc");
        assertThat(opened.paymentId()).as("a Dispute carries no PaymentIntent metadata: bound by reference").isNull();
        assertThat(opened.attempt()).isNull();
        assertThat(opened.refundId()).isNull();
        assertThat(opened.status()).isEqualTo(GatewayStatus.SUCCEEDED);
        assertThat(opened.dispute()).isEqualTo(new DisputeNotice("dp_1Pgc71B7WZ01zgkWMevJiAUx",
                DisputeNotice.Kind.OPENED, 1000, "USD", "fraudulent", Instant.ofEpochSecond(1723679999),
                Instant.ofEpochSecond(1764936000)));
    }

    @ParameterizedTest(name = "{0} {1} -> {2}")
    @CsvSource({
            "charge.dispute.created,          warning_needs_response, OPENED",
            "charge.dispute.created,          needs_response,         OPENED",
            "charge.dispute.updated,          under_review,           UPDATED",
            "charge.dispute.funds_withdrawn,  needs_response,         UPDATED",
            "charge.dispute.funds_reinstated, won,                    UPDATED",
            "charge.dispute.closed,           won,                    WON",
            "charge.dispute.closed,           lost,                   LOST",
            "charge.dispute.closed,           warning_closed,         WON",
            "charge.dispute.closed,           prevented,              UPDATED",
            "charge.dispute.closed,           some_new_status,        UPDATED"})
    void kinds(String type, String status, DisputeNotice.Kind kind) {
        assertThat(read(type, dispute("\"pi_3Abc\"", 1000, "usd", status)).get(0).dispute().kind()).isEqualTo(kind);
    }

    @Test
    void theAmountComesBackInIsoUnits() {
        ConnectorNotification isk = read("charge.dispute.created", dispute("\"pi_3Abc\"", 500, "isk",
                "needs_response")).get(0);
        assertThat(isk.amount()).isEqualTo(5);
        assertThat(isk.currency()).isEqualTo("ISK");
        assertThat(isk.dispute().amount()).isEqualTo(5);

        assertThatThrownBy(() -> read("charge.dispute.created", dispute("\"pi_3Abc\"", 550, "isk",
                "needs_response"))).isInstanceOf(WebhookInvalid.class);
    }

    @Test
    void anExpandedPaymentIntentNamesThePaymentAndTheAttemptFromItsMetadata() {
        ConnectorNotification opened = read("charge.dispute.created", dispute("""
                {"id": "pi_3Abc", "object": "payment_intent", "metadata": {"payment_id": "pay_1", "attempt": "2"}}""",
                1000, "eur", "needs_response")).get(0);

        assertThat(opened.reference()).isEqualTo("pi_3Abc");
        assertThat(opened.paymentId()).isEqualTo("pay_1");
        assertThat(opened.attempt()).isEqualTo(2);
    }

    @Test
    void aDisputeOfAChargeWithoutAPaymentIntentIsOfNothingThisServiceMade() {
        assertThat(read("charge.dispute.created", dispute("null", 1000, "usd", "needs_response"))).isEmpty();
    }

    @Test
    void withoutAnEvidenceDateOrAnEventTimeTheNoticeSaysNoneAndNow() {
        JsonNode event = JSON.readTree("""
                {"id": "evt_2", "type": "charge.dispute.updated", "data": {"object": {"id": "dp_2",
                 "object": "dispute", "amount": 700, "currency": "jpy", "status": "under_review",
                 "payment_intent": "pi_2", "reason": null, "evidence_details": {"due_by": null}}}}""");
        DisputeNotice notice = StripeDisputes.notifications("evt_2", "charge.dispute.updated", event, NOW).get(0)
                .dispute();

        assertThat(notice.evidenceDueBy()).isNull();
        assertThat(notice.reason()).isNull();
        assertThat(notice.occurredAt()).isEqualTo(NOW);
        assertThat(notice.amount()).isEqualTo(700);
    }

    @Test
    void theMerchantsAdapterHandsDisputeEventsOnAndStillIgnoresOtherChargeEvents() {
        StripeAccounts.Account account = new StripeAccounts.Account();
        account.setSecretKey("sk_test_x");
        account.setWebhookSecret("whsec_x");
        StripeAccounts.Connectors connectors = new StripeAccounts.Connectors();
        connectors.setStripe(account);
        StripeAccounts.Merchant merchant = new StripeAccounts.Merchant();
        merchant.setConnectors(connectors);
        StripeAccounts accounts = new StripeAccounts();
        accounts.setMerchants(Map.of("m", merchant));
        var adapter = new StripeWebhooks(accounts, Clock.fixed(NOW, ZoneOffset.UTC)).forMerchant("m");

        String closed = event("charge.dispute.closed", dispute("\"pi_3Abc\"", 1000, "usd", "lost")).toString();
        List<ConnectorNotification> read = adapter.parse(new HttpHeaders(), closed.getBytes(StandardCharsets.UTF_8));
        assertThat(read).singleElement().satisfies(n -> {
            assertThat(n.reference()).isEqualTo("pi_3Abc");
            assertThat(n.dispute().kind()).isEqualTo(DisputeNotice.Kind.LOST);
            assertThat(n.dispute().connectorReference()).isEqualTo("dp_1Pgc71B7WZ01zgkWMevJiAUx");
        });
        String other = event("charge.succeeded", "{\"id\": \"ch_1\", \"object\": \"charge\"}").toString();
        assertThat(adapter.parse(new HttpHeaders(), other.getBytes(StandardCharsets.UTF_8))).isEmpty();
        String broken = event("charge.dispute.created", "{\"id\": \"dp_1\"}").toString();
        assertThatThrownBy(() -> adapter.parse(new HttpHeaders(), broken.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(WebhookInvalid.class);
    }

    @Test
    void aDisputeWithoutIdStatusAmountOrCurrencyIsMalformed() {
        for (String broken : List.of(
                "{\"object\": \"dispute\", \"amount\": 1000, \"currency\": \"usd\", \"status\": \"lost\","
                        + " \"payment_intent\": \"pi_1\"}",
                "{\"id\": \"dp_1\", \"amount\": 1000, \"currency\": \"usd\", \"payment_intent\": \"pi_1\"}",
                "{\"id\": \"dp_1\", \"amount\": \"1000\", \"currency\": \"usd\", \"status\": \"lost\","
                        + " \"payment_intent\": \"pi_1\"}",
                "{\"id\": \"dp_1\", \"amount\": 1000, \"status\": \"lost\", \"payment_intent\": \"pi_1\"}",
                "{\"id\": \"dp_1\", \"amount\": 0, \"currency\": \"usd\", \"status\": \"lost\","
                        + " \"payment_intent\": \"pi_1\"}",
                "[]")) {
            assertThatThrownBy(() -> read("charge.dispute.closed", broken)).as(broken)
                    .isInstanceOf(WebhookInvalid.class);
        }
    }
}
