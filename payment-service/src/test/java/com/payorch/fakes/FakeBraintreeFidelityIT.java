package com.payorch.fakes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.braintreegateway.BraintreeGateway;
import com.braintreegateway.Environment;
import com.braintreegateway.ResourceCollection;
import com.braintreegateway.Result;
import com.braintreegateway.Transaction;
import com.braintreegateway.TransactionRefundRequest;
import com.braintreegateway.TransactionRequest;
import com.braintreegateway.TransactionSearchRequest;
import com.braintreegateway.ValidationError;
import com.braintreegateway.ValidationErrorCode;
import com.braintreegateway.WebhookNotification;
import com.braintreegateway.exceptions.AuthenticationException;
import com.braintreegateway.exceptions.InvalidSignatureException;
import java.math.BigDecimal;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * {@link FakeBraintree}'s answers read by braintree-java itself, on the SDK's own transport (HttpURLConnection) and
 * parsers: each body becomes the SDK object the service expects, and its webhooks are what the SDK's
 * `WebhookTestingGateway.sampleNotification` makes and what `webhookNotification().parse` accepts.
 */
class FakeBraintreeFidelityIT {

    private static final FakeBraintree FAKE = new FakeBraintree().acceptKeys("fidelity", "pub_fid", "priv_fid");
    private static final BraintreeGateway SDK = new BraintreeGateway(
            new Environment(FAKE.baseUrl(), FAKE.baseUrl(), new String[0], "fake"), "fidelity", "pub_fid", "priv_fid");

    @AfterAll
    static void stop() {
        FAKE.close();
    }

    private static Result<Transaction> sale(String nonce, String orderId) {
        return SDK.transaction().sale(new TransactionRequest().amount(new BigDecimal("10.00")).orderId(orderId)
                .paymentMethodNonce(nonce).options().submitForSettlement(true).done());
    }

    @Test
    void aSaleIsATransactionSubmittedForSettlementThatTheSearchByOrderIdAndTheFindReturn() {
        Result<Transaction> result = sale("fake-valid-nonce", "pay_fid_1");

        assertThat(result.isSuccess()).isTrue();
        Transaction sale = result.getTarget();
        assertThat(sale.getStatus()).isEqualTo(Transaction.Status.SUBMITTED_FOR_SETTLEMENT);
        assertThat(sale.getType()).isEqualTo(Transaction.Type.SALE);
        assertThat(sale.getAmount()).isEqualByComparingTo("10.00");
        assertThat(sale.getCurrencyIsoCode()).isEqualTo("EUR");
        assertThat(sale.getOrderId()).isEqualTo("pay_fid_1");
        assertThat(sale.getProcessorResponseCode()).isEqualTo("1000");
        assertThat(sale.getCreatedAt()).isNotNull();
        assertThat(sale.getCreditCard().getLast4()).isEqualTo("1111");
        assertThat(sale.getStatusHistory()).extracting(h -> h.getStatus())
                .containsExactly(Transaction.Status.AUTHORIZED, Transaction.Status.SUBMITTED_FOR_SETTLEMENT);

        ResourceCollection<Transaction> found = SDK.transaction().search(new TransactionSearchRequest().orderId()
                .is("pay_fid_1"));
        assertThat(StreamSupport.stream(found.spliterator(), false).map(Transaction::getId))
                .containsExactly(sale.getId());
        assertThat(SDK.transaction().find(sale.getId()).getOrderId()).isEqualTo("pay_fid_1");
        assertThat(StreamSupport.stream(SDK.transaction().search(new TransactionSearchRequest().orderId()
                .is("pay_fid_none")).spliterator(), false)).isEmpty();
    }

    @Test
    void declinesAndRejectionsAre422ResultsCarryingTheTransaction() {
        Result<Transaction> declined = sale("fake-processor-declined-visa-nonce", "pay_fid_2");
        assertThat(declined.isSuccess()).isFalse();
        assertThat(declined.getMessage()).isEqualTo("Do Not Honor");
        assertThat(declined.getTransaction().getStatus()).isEqualTo(Transaction.Status.PROCESSOR_DECLINED);
        assertThat(declined.getTransaction().getProcessorResponseCode()).isEqualTo("2000");
        assertThat(declined.getTransaction().getProcessorResponseText()).isEqualTo("Do Not Honor");

        Result<Transaction> rejected = sale("fake-gateway-rejected-fraud-nonce", "pay_fid_3");
        assertThat(rejected.isSuccess()).isFalse();
        assertThat(rejected.getTransaction().getStatus()).isEqualTo(Transaction.Status.GATEWAY_REJECTED);
        assertThat(rejected.getTransaction().getGatewayRejectionReason())
                .isEqualTo(Transaction.GatewayRejectionReason.FRAUD);
    }

    @Test
    void aRefundIsACreditOfASettledSaleOnlyAndValidationErrorsCarryBraintreesCodes() {
        Transaction sale = sale("fake-valid-nonce", "pay_fid_4").getTarget();

        Result<Transaction> early = SDK.transaction().refund(sale.getId(),
                new TransactionRefundRequest().amount(new BigDecimal("4.00")).orderId("re_fid_1"));
        assertThat(early.isSuccess()).isFalse();
        assertThat(early.getTransaction()).isNull();
        assertThat(early.getErrors().getAllDeepValidationErrors()).extracting(ValidationError::getCode)
                .containsExactly(ValidationErrorCode.TRANSACTION_CANNOT_REFUND_UNLESS_SETTLED);

        FAKE.settle(sale.getId());
        Result<Transaction> refund = SDK.transaction().refund(sale.getId(),
                new TransactionRefundRequest().amount(new BigDecimal("4.00")).orderId("re_fid_1"));
        assertThat(refund.isSuccess()).isTrue();
        Transaction credit = refund.getTarget();
        assertThat(credit.getType()).isEqualTo(Transaction.Type.CREDIT);
        assertThat(credit.getRefundedTransactionId()).isEqualTo(sale.getId());
        assertThat(credit.getOrderId()).isEqualTo("re_fid_1");
        assertThat(credit.getAmount()).isEqualByComparingTo("4.00");
        assertThat(SDK.transaction().find(sale.getId()).getRefundIds()).containsExactly(credit.getId());

        Result<Transaction> tooMuch = SDK.transaction().refund(sale.getId(),
                new TransactionRefundRequest().amount(new BigDecimal("7.00")).orderId("re_fid_2"));
        assertThat(tooMuch.getErrors().getAllDeepValidationErrors()).extracting(ValidationError::getCode)
                .containsExactly(ValidationErrorCode.TRANSACTION_REFUND_AMOUNT_IS_TOO_LARGE);
    }

    @Test
    void aHoldIsAnAuthorisedSaleThatSubmitForSettlementCapturesInPartOnceAndVoidReleases() {
        Transaction held = SDK.transaction().sale(new TransactionRequest().amount(new BigDecimal("10.00"))
                .orderId("pay_fid_6").paymentMethodNonce("fake-valid-nonce")).getTarget();
        assertThat(held.getStatus()).isEqualTo(Transaction.Status.AUTHORIZED);

        Result<Transaction> captured = SDK.transaction().submitForSettlement(held.getId(), new BigDecimal("4.00"));
        assertThat(captured.isSuccess()).isTrue();
        assertThat(captured.getTarget().getStatus()).isEqualTo(Transaction.Status.SUBMITTED_FOR_SETTLEMENT);
        assertThat(captured.getTarget().getAmount()).isEqualByComparingTo("4.00");
        assertThat(captured.getTarget().getStatusHistory()).extracting(h -> h.getAmount().toPlainString())
                .containsExactly("10.00", "4.00");
        Result<Transaction> twice = SDK.transaction().submitForSettlement(held.getId(), new BigDecimal("4.00"));
        assertThat(twice.isSuccess()).isFalse();
        assertThat(twice.getErrors().getAllDeepValidationErrors()).extracting(ValidationError::getCode)
                .containsExactly(ValidationErrorCode.TRANSACTION_CANNOT_SUBMIT_FOR_SETTLEMENT);

        Transaction other = SDK.transaction().sale(new TransactionRequest().amount(new BigDecimal("10.00"))
                .orderId("pay_fid_7").paymentMethodNonce("fake-valid-nonce")).getTarget();
        assertThat(SDK.transaction().submitForSettlement(other.getId(), new BigDecimal("10.01")).getErrors()
                .getAllDeepValidationErrors()).extracting(ValidationError::getCode)
                .containsExactly(ValidationErrorCode.TRANSACTION_SETTLEMENT_AMOUNT_IS_TOO_LARGE);
        Result<Transaction> voided = SDK.transaction().voidTransaction(other.getId());
        assertThat(voided.isSuccess()).isTrue();
        assertThat(voided.getTarget().getStatus()).isEqualTo(Transaction.Status.VOIDED);
        assertThat(SDK.transaction().voidTransaction(other.getId()).getErrors().getAllDeepValidationErrors())
                .extracting(ValidationError::getCode).containsExactly(ValidationErrorCode.TRANSACTION_CANNOT_BE_VOIDED);
        assertThat(SDK.transaction().find(other.getId()).getStatus()).isEqualTo(Transaction.Status.VOIDED);
    }

    @Test
    void wrongKeysAreTheSdksAuthenticationException() {
        BraintreeGateway wrong = new BraintreeGateway(new Environment(FAKE.baseUrl(), FAKE.baseUrl(),
                new String[0], "fake"), "fidelity", "pub_fid", "not_the_key");

        assertThatThrownBy(() -> wrong.transaction().find("nothing")).isInstanceOf(AuthenticationException.class);
    }

    @Test
    void aWebhookIsWhatTheSdkSignsAndParses() {
        Transaction sale = sale("fake-settlement-pending-nonce", "pay_fid_5").getTarget();
        assertThat(sale.getStatus()).isEqualTo(Transaction.Status.SETTLEMENT_PENDING);
        FAKE.settle(sale.getId());
        Map<String, String> form = form(FAKE.webhook("transaction_settled", sale.getId(), "pub_fid", "priv_fid"));

        WebhookNotification notification = SDK.webhookNotification().parse(form.get("bt_signature"),
                form.get("bt_payload"));

        assertThat(notification.getKind()).isEqualTo(WebhookNotification.Kind.TRANSACTION_SETTLED);
        assertThat(notification.getTimestamp()).isNotNull();
        Transaction settled = notification.getTransaction();
        assertThat(settled.getId()).isEqualTo(sale.getId());
        assertThat(settled.getStatus()).isEqualTo(Transaction.Status.SETTLED);
        assertThat(settled.getOrderId()).isEqualTo("pay_fid_5");
        assertThat(settled.getCurrencyIsoCode()).isEqualTo("EUR");
        assertThat(settled.getAmount()).isEqualByComparingTo("10.00");
        assertThatThrownBy(() -> SDK.webhookNotification().parse("pub_fid|" + "0".repeat(40),
                form.get("bt_payload"))).isInstanceOf(InvalidSignatureException.class);
    }

    @Test
    void theFakesNotificationHasTheShapeAndSignatureOfTheSdksSample() {
        Map<String, String> sample = SDK.webhookTesting().sampleNotification(
                WebhookNotification.Kind.TRANSACTION_SETTLED, "sample_id");
        String sampleXml = new String(Base64.getMimeDecoder().decode(sample.get("bt_payload")),
                StandardCharsets.UTF_8);
        String subject = sampleXml.substring(sampleXml.indexOf("<subject>") + 9, sampleXml.indexOf("</subject>"));

        Map<String, String> ours = FakeBraintree.notification("transaction_settled", subject, "pub_fid", "priv_fid");
        String ourXml = new String(Base64.getDecoder().decode(ours.get("bt_payload")), StandardCharsets.UTF_8);

        assertThat(ourXml.replaceAll("<timestamp[^<]*</timestamp>", ""))
                .isEqualTo(sampleXml.replaceAll("<timestamp[^<]*</timestamp>", ""));
        assertThat(ours.get("bt_signature")).matches("pub_fid\\|[0-9a-f]{40}");
        WebhookNotification parsed = SDK.webhookNotification().parse(ours.get("bt_signature"), ours.get("bt_payload"));
        assertThat(parsed.getTransaction().getId()).isEqualTo("sample_id");
        assertThat(SDK.webhookNotification().parse(sample.get("bt_signature"), sample.get("bt_payload"))
                .getKind()).isEqualTo(parsed.getKind());
    }

    private static Map<String, String> form(String body) {
        Map<String, String> form = new HashMap<>();
        for (String pair : body.split("&")) {
            String[] kv = pair.split("=", 2);
            form.put(kv[0], URLDecoder.decode(kv[1], StandardCharsets.UTF_8));
        }
        return form;
    }
}
