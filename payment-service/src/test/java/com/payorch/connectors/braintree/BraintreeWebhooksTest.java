package com.payorch.connectors.braintree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.braintreegateway.Environment;
import com.braintreegateway.WebhookNotification;
import com.payorch.fakes.FakeBraintree;
import com.payorch.gateway.ConnectorNotification;
import com.payorch.gateway.ConnectorWebhooks;
import com.payorch.gateway.DisputeNotice;
import com.payorch.gateway.GatewayStatus;
import com.payorch.webhooks.WebhookEndpointUnknown;
import com.payorch.webhooks.WebhookInvalid;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;

/** {@link BraintreeWebhooks} on its own: the SDK's verification, the kinds it reads, the refunds it binds. */
class BraintreeWebhooksTest {

    private static final BraintreeWebhooks WEBHOOKS = new BraintreeWebhooks(new BraintreeSettings(), accounts());

    private static BraintreeAccounts accounts() {
        BraintreeAccounts.Account account = new BraintreeAccounts.Account();
        account.setMerchantId("bt_m");
        account.setPublicKey("pub_m");
        account.setPrivateKey("priv_m");
        BraintreeAccounts.Merchant merchant = new BraintreeAccounts.Merchant();
        merchant.getConnectors().setBraintree(account);
        BraintreeAccounts.Merchant partial = new BraintreeAccounts.Merchant();
        BraintreeAccounts.Account noPrivateKey = new BraintreeAccounts.Account();
        noPrivateKey.setMerchantId("bt_p");
        noPrivateKey.setPublicKey("pub_p");
        partial.getConnectors().setBraintree(noPrivateKey);
        BraintreeAccounts accounts = new BraintreeAccounts();
        accounts.setMerchants(Map.of("m", merchant, "partial", partial));
        return accounts;
    }

    private static byte[] form(String kind, String subject, String privateKey) {
        Map<String, String> fields = FakeBraintree.notification(kind, subject, "pub_m", privateKey);
        return ("bt_signature=" + URLEncoder.encode(fields.get("bt_signature"), StandardCharsets.UTF_8)
                + "&bt_payload=" + URLEncoder.encode(fields.get("bt_payload"), StandardCharsets.UTF_8))
                .getBytes(StandardCharsets.UTF_8);
    }

    private static String transaction(String id, String type, String status, String orderId, String refunded) {
        return "<transaction><id>" + id + "</id><type>" + type + "</type><status>" + status + "</status>"
                + "<amount>4.00</amount><currency-iso-code>EUR</currency-iso-code><order-id>" + orderId
                + "</order-id>" + (refunded == null ? "" : "<refunded-transaction-id>" + refunded
                + "</refunded-transaction-id>") + "</transaction>";
    }

    @Test
    void aSettledSaleIsTheChargesSuccessForThePaymentInItsOrderId() {
        ConnectorWebhooks adapter = WEBHOOKS.forMerchant("m");
        byte[] body = form("transaction_settled", transaction("t1", "sale", "settled", "pay_1-attempt-2", null),
                "priv_m");

        assertThat(adapter.verify(new HttpHeaders(), body)).isTrue();
        assertThat(adapter.parse(new HttpHeaders(), body)).containsExactly(new ConnectorNotification(
                "braintree:transaction_settled:t1", "transaction_settled", "pay_1", 2, "t1", GatewayStatus.SUCCEEDED,
                400, "EUR", null, null));
    }

    /** Issue 22 finding 5: the `orderId` is the attempt's key, so the notification names its attempt exactly. */
    @Test
    void theOrderIdNamesTheAttemptTheFirstWithoutSuffix() {
        ConnectorWebhooks adapter = WEBHOOKS.forMerchant("m");

        assertThat(adapter.parse(new HttpHeaders(), form("transaction_settlement_declined",
                transaction("t2", "sale", "settlement_declined", "pay_1", null), "priv_m")).get(0).attempt())
                .isEqualTo(1);
        assertThat(adapter.parse(new HttpHeaders(), form("transaction_settled",
                transaction("t3", "sale", "settled", "pay_1-attempt-12", null), "priv_m")).get(0).attempt())
                .isEqualTo(12);
    }

    /** The service compares a notification's amount with the payment's: a hold captured in part settles less. */
    @Test
    void aHoldCapturedInPartReportsTheAmountItWasAuthorisedFor() {
        String subject = "<transaction><id>t4</id><type>sale</type><status>settled</status><amount>30.00</amount>"
                + "<currency-iso-code>EUR</currency-iso-code><order-id>pay_4</order-id>"
                + "<status-history type=\"array\">"
                + "<status-event><status>authorized</status><amount>42.00</amount></status-event>"
                + "<status-event><status>submitted_for_settlement</status><amount>30.00</amount></status-event>"
                + "<status-event><status>settled</status><amount>30.00</amount></status-event>"
                + "</status-history></transaction>";

        ConnectorNotification settled = WEBHOOKS.forMerchant("m").parse(new HttpHeaders(),
                form("transaction_settled", subject, "priv_m")).get(0);

        assertThat(settled.amount()).isEqualTo(4200);
        assertThat(settled.status()).isEqualTo(GatewayStatus.SUCCEEDED);
    }

    @Test
    void aSettledCreditAndAFailedRefundSettleTheRefundInTheCreditsOrderId() {
        ConnectorWebhooks adapter = WEBHOOKS.forMerchant("m");

        assertThat(adapter.parse(new HttpHeaders(), form("transaction_settled",
                transaction("c1", "credit", "settled", "re_1", "t1"), "priv_m"))).containsExactly(
                new ConnectorNotification("braintree:transaction_settled:c1", "transaction_settled", null, "c1",
                        GatewayStatus.SUCCEEDED, 400, "EUR", null, "re_1"));
        ConnectorNotification failed = adapter.parse(new HttpHeaders(), form("refund_failed",
                transaction("c2", "credit", "processor_declined", "re_2", "t1"), "priv_m")).get(0);
        assertThat(failed.refundId()).isEqualTo("re_2");
        assertThat(failed.status()).isEqualTo(GatewayStatus.FAILED);
        assertThat(failed.failureReason()).isEqualTo("processor_declined");
    }

    private static byte[] form(Map<String, String> fields) {
        return FakeBraintree.form(fields).getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aDisputeIsReportedAboutTheSaleAndTheAttemptInItsOrderId() {
        Instant sent = Instant.parse("2026-12-05T13:30:00Z");
        String subject = FakeBraintree.disputeXml("dsp1", "dispute_opened", "t1", "pay_1-attempt-2", "40.50", "EUR")
                .replaceFirst("<reply-by-date type=\"date\">[^<]*<", "<reply-by-date type=\"date\">2026-12-12<");
        ConnectorWebhooks adapter = WEBHOOKS.forMerchant("m");
        byte[] body = form(FakeBraintree.notification("dispute_opened", sent, subject, "pub_m", "priv_m"));

        assertThat(adapter.verify(new HttpHeaders(), body)).isTrue();
        ConnectorNotification opened = adapter.parse(new HttpHeaders(), body).get(0);

        assertThat(opened).isEqualTo(ConnectorNotification.aboutDispute(
                "braintree:dispute_opened:dsp1:" + sent.getEpochSecond(), "dispute_opened", "pay_1", 2, "t1",
                new DisputeNotice("dsp1", DisputeNotice.Kind.OPENED, 4050, "EUR", "fraud",
                        Instant.parse("2026-12-12T00:00:00Z"), sent)));
        assertThat(opened.isAboutADispute()).isTrue();
    }

    @Test
    void eachDisputeKindSaysWhatBecomesOfTheDispute() {
        Map<String, DisputeNotice.Kind> kinds = Map.of(
                "dispute_opened", DisputeNotice.Kind.OPENED,
                "dispute_under_review", DisputeNotice.Kind.UPDATED,
                "dispute_disputed", DisputeNotice.Kind.UPDATED,
                "dispute_won", DisputeNotice.Kind.WON,
                "dispute_lost", DisputeNotice.Kind.LOST,
                "dispute_accepted", DisputeNotice.Kind.LOST,
                "dispute_auto_accepted", DisputeNotice.Kind.LOST,
                "dispute_expired", DisputeNotice.Kind.LOST);
        ConnectorWebhooks adapter = WEBHOOKS.forMerchant("m");

        kinds.forEach((kind, expected) -> {
            ConnectorNotification notification = adapter.parse(new HttpHeaders(), form(FakeBraintree.notification(
                    kind, FakeBraintree.disputeXml("dsp2", kind, "t2", "pay_2", "12000", "JPY"), "pub_m",
                    "priv_m"))).get(0);
            assertThat(notification.dispute().kind()).as(kind).isEqualTo(expected);
            assertThat(notification.type()).isEqualTo(kind);
            assertThat(notification.receiptId()).startsWith("braintree:" + kind + ":dsp2:");
            assertThat(notification.amount()).isEqualTo(12000);
            assertThat(notification.attempt()).isEqualTo(1);
        });
        assertThat(kinds.keySet()).containsExactlyInAnyOrderElementsOf(java.util.Arrays.stream(
                WebhookNotification.Kind.values()).map(Object::toString).filter(k -> k.startsWith("dispute_"))
                .toList());
    }

    /** The SDK's own samples (`WebhookTestingGateway`): a dispute of sale `id`, whose order id they leave out. */
    @Test
    void theSdksDisputeSamplesAreReadBoundByTheSaleAlone() {
        var testing = new com.braintreegateway.BraintreeGateway(Environment.SANDBOX, "bt_m", "pub_m", "priv_m")
                .webhookTesting();
        ConnectorWebhooks adapter = WEBHOOKS.forMerchant("m");

        for (WebhookNotification.Kind kind : new WebhookNotification.Kind[] {WebhookNotification.Kind.DISPUTE_OPENED,
                WebhookNotification.Kind.DISPUTE_LOST, WebhookNotification.Kind.DISPUTE_WON}) {
            byte[] body = form(testing.sampleNotification(kind, "sale7"));
            assertThat(adapter.verify(new HttpHeaders(), body)).isTrue();
            ConnectorNotification notification = adapter.parse(new HttpHeaders(), body).get(0);
            assertThat(notification.reference()).isEqualTo("sale7");
            assertThat(notification.paymentId()).isNull();
            assertThat(notification.attempt()).isNull();
            assertThat(notification.amount()).isEqualTo(25000);
            assertThat(notification.currency()).isEqualTo("USD");
            assertThat(notification.status()).isEqualTo(GatewayStatus.SUCCEEDED);
            assertThat(notification.dispute().connectorReference()).isEqualTo("sale7");
            assertThat(notification.dispute().reason()).isEqualTo("fraud");
            assertThat(notification.dispute().evidenceDueBy()).isEqualTo(Instant.parse("2014-03-21T00:00:00Z"));
            assertThat(notification.dispute().kind()).isEqualTo(BraintreeWebhooks.disputeKind(kind));
        }
    }

    @Test
    void aSignedDisputeWithoutItsTransactionIsInvalid() {
        String subject = "<dispute><id>dsp3</id><amount>4.00</amount><currency-iso-code>EUR</currency-iso-code>"
                + "<status>open</status></dispute>";

        assertThatThrownBy(() -> WEBHOOKS.forMerchant("m").parse(new HttpHeaders(),
                form("dispute_opened", subject, "priv_m"))).isInstanceOf(WebhookInvalid.class);
    }

    @Test
    void otherKindsAreNotRead() {
        assertThat(WEBHOOKS.forMerchant("m").parse(new HttpHeaders(), form("check",
                "<check type=\"boolean\">true</check>", "priv_m"))).isEmpty();
    }

    @Test
    void aSignatureOfAnotherKeyOrNoFormAtAllFailsVerification() {
        ConnectorWebhooks adapter = WEBHOOKS.forMerchant("m");

        assertThat(adapter.verify(new HttpHeaders(), form("transaction_settled",
                transaction("t1", "sale", "settled", "pay_1", null), "priv_other"))).isFalse();
        assertThat(adapter.verify(new HttpHeaders(), "{\"kind\": \"transaction_settled\"}"
                .getBytes(StandardCharsets.UTF_8))).isFalse();
    }

    @Test
    void aSignedTransactionWithoutAmountOrCurrencyIsInvalid() {
        String subject = "<transaction><id>t1</id><type>sale</type><status>settled</status><order-id>pay_1"
                + "</order-id></transaction>";

        assertThatThrownBy(() -> WEBHOOKS.forMerchant("m").parse(new HttpHeaders(),
                form("transaction_settled", subject, "priv_m"))).isInstanceOf(WebhookInvalid.class);
    }

    @Test
    void unknownMerchantsAndIncompleteAccountsHaveNoEndpoint() {
        assertThatThrownBy(() -> WEBHOOKS.forMerchant("nobody")).isInstanceOf(WebhookEndpointUnknown.class);
        assertThatThrownBy(() -> WEBHOOKS.forMerchant("partial")).isInstanceOf(WebhookEndpointUnknown.class);
    }
}
