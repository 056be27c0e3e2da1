package com.payorch.connectors.adyen;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.fakes.FakeAdyen;
import com.payorch.gateway.ChargeRequest;
import com.payorch.gateway.ConnectorNotification;
import com.payorch.gateway.ConnectorRefusedException;
import com.payorch.gateway.GatewayException;
import com.payorch.gateway.GatewayOutcome;
import com.payorch.gateway.GatewayStatus;
import com.payorch.gateway.RefundOutcome;
import com.payorch.gateway.RefundRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.http.HttpHeaders;
import reactor.test.StepVerifier;

/**
 * The Adyen connector keeps the PSP's word (issue 22, Adyen side), against {@link FakeAdyen} over real HTTP: amounts in
 * Adyen's units both ways (finding 2), the attempt sent as metadata and read back from the notification (finding 5),
 * no look-up (finding 1), cancel by reference confirmed by TECHNICAL_CANCEL (finding 1), orphans given back by
 * reversal and refund failures (finding 4). What the payment and the refund then do is the core's and the refunds'
 * part; here: the requests Adyen receives and the notifications the connector makes of Adyen's answers.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AdyenThePspsWordIT {

    private static final String API_KEY = "AQE_FakePspsWordAdyenKeyDoNotLog_0022";
    private static final String ACCOUNT = "PayorchWordECOM";
    private static final String HMAC_KEY = "44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056";
    private static final Duration WAIT = Duration.ofSeconds(20);

    private final FakeAdyen adyen = new FakeAdyen().acceptKey(API_KEY);
    private final AdyenConnector connector;

    AdyenThePspsWordIT() {
        Binder binder = new Binder(new MapConfigurationPropertySource(Map.of(
                "payments.merchants.m.connectors.adyen.api-key", API_KEY,
                "payments.merchants.m.connectors.adyen.merchant-account", ACCOUNT,
                "payments.merchants.m.connectors.adyen.hmac-key", HMAC_KEY,
                "payments.connectors.adyen.checkout-url", adyen.checkoutUrl(),
                "payments.connectors.adyen.read-timeout", "PT10S",
                "payments.connectors.adyen.threads", "2")));
        connector = new AdyenConnector(binder.bind("payments.connectors.adyen", Bindable.of(AdyenSettings.class)).get(),
                binder.bind("payments", Bindable.of(AdyenAccounts.class)).get(), (c, m, d) -> { });
    }

    @AfterAll
    void stop() {
        connector.destroy();
        adyen.close();
    }

    private static String paymentId() {
        return "pay_" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
    }

    private static ChargeRequest charge(String paymentId, int attempt, long amount, String currency, String token) {
        return new ChargeRequest(paymentId, attempt, amount, currency, token, "m", "adyen");
    }

    private GatewayOutcome submit(ChargeRequest request) {
        return connector.gateway().submit(request).block(WAIT);
    }

    /** The notifications Adyen sent since the last call, signed, through the merchant's endpoint adapter. */
    private List<ConnectorNotification> sentByAdyen() {
        List<Map<String, Object>> items = adyen.takeNotifications();
        assertThat(items).as("Adyen has notifications to send").isNotEmpty();
        String batch = FakeAdyen.notification(ACCOUNT, HMAC_KEY, items);
        return connector.webhooksFor("m").parse(new HttpHeaders(), batch.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aClpPaymentReachesAdyenInItsUnitsAndItsNotificationComesBackInIsoUnitsNamingTheAttempt() {
        String id = paymentId();
        GatewayOutcome outcome = submit(charge(id, 2, 5000, "CLP", "pm_stored_clp"));

        Map<String, Object> made = adyen.paymentsFor(id).get(0);
        assertThat(made.get("amount")).isEqualTo(Map.of("currency", "CLP", "value", 500000L));
        assertThat(made.get("metadata")).isEqualTo(Map.of("paymentId", id, "attempt", "2"));
        assertThat(made.get("reference")).isEqualTo(id);

        adyen.authorisation(outcome.reference(), true);
        ConnectorNotification notification = sentByAdyen().get(0);
        assertThat(notification.amount()).isEqualTo(5000L);
        assertThat(notification.currency()).isEqualTo("CLP");
        assertThat(notification.attempt()).isEqualTo(2);
        assertThat(notification.paymentId()).isEqualTo(id);
        assertThat(notification.reference()).isEqualTo(outcome.reference());
    }

    @Test
    void anAmountAdyenCannotExpressIsRefusedBeforeAnythingIsSent() {
        String id = paymentId();

        StepVerifier.create(connector.gateway().submit(charge(id, 1, 12345, "CVE", "pm_stored_cve")))
                .expectErrorSatisfies(error -> assertThat(error).isInstanceOf(ConnectorRefusedException.class)
                        .hasMessageContaining("CVE 12345"))
                .verify(WAIT);
        assertThat(adyen.paymentsFor(id)).isEmpty();

        String whole = paymentId();
        submit(charge(whole, 1, 12300, "CVE", "pm_stored_cve"));
        assertThat(adyen.paymentsFor(whole).get(0).get("amount")).isEqualTo(Map.of("currency", "CVE", "value", 123L));
    }

    @Test
    void aLookUpIsNoEvidence() {
        String id = paymentId();
        submit(charge(id, 1, 1000, "EUR", "pm_stored_find"));

        StepVerifier.create(connector.gateway().find(charge(id, 1, 1000, "EUR", "pm_stored_find")))
                .expectError(GatewayException.class).verify(WAIT);
    }

    @Test
    void aCancelByReferenceOfAPendingAuthorisationIsConfirmedByTechnicalCancelAsTheAttemptFailedWithNothingTaken() {
        String id = paymentId();
        ChargeRequest attempt = charge(id, 1, 1000, "EUR", "pm_card_processing_cancel");
        GatewayOutcome pending = submit(attempt);
        assertThat(pending.status()).isEqualTo(GatewayStatus.PROCESSING);
        adyen.takeNotifications();

        connector.gateway().cancelByReference(attempt).block(WAIT);
        connector.gateway().cancelByReference(attempt).block(WAIT);

        List<Map<String, Object>> cancels = adyen.cancelsFor(id);
        assertThat(cancels).as("the same cancel key is one cancel").hasSize(1);
        assertThat(cancels.get(0)).containsEntry("merchantAccount", ACCOUNT).containsEntry("status", "received")
                .containsEntry("idempotencyKey", id + "-cancel");
        ConnectorNotification confirmed = sentByAdyen().get(0);
        assertThat(confirmed.type()).isEqualTo("TECHNICAL_CANCEL");
        // Contract v3: reported CANCELLED "confirmed: nothing was taken"; the domain FAILS this automatic payment.
        assertThat(confirmed.status()).isEqualTo(GatewayStatus.CANCELLED);
        assertThat(confirmed.failureReason()).isEqualTo("gateway_unreachable");
        assertThat(confirmed.confirmsNothingTaken()).isTrue();
        assertThat(confirmed.paymentId()).isEqualTo(id);
        assertThat(confirmed.attempt()).isEqualTo(1);
        assertThat(confirmed.reference()).isEqualTo(pending.reference());
        assertThat(confirmed.amount()).isEqualTo(1000L);
    }

    @Test
    void aCancelByReferenceWhenAdyenHoldsNothingIsConfirmedToo() {
        String id = paymentId();

        connector.gateway().cancelByReference(charge(id, 1, 1000, "EUR", "pm_stored_never")).block(WAIT);

        ConnectorNotification confirmed = sentByAdyen().get(0);
        assertThat(confirmed.failureReason()).isEqualTo("gateway_unreachable");
        assertThat(confirmed.confirmsNothingTaken()).isTrue();
        assertThat(confirmed.paymentId()).isEqualTo(id);
    }

    @Test
    void aCancelByReferenceOfACapturedPaymentIsRefusedByAdyenAndIsNothing() {
        String id = paymentId();
        ChargeRequest attempt = charge(id, 1, 1000, "EUR", "pm_stored_captured");
        assertThat(submit(attempt).status()).isEqualTo(GatewayStatus.SUCCEEDED);

        connector.gateway().cancelByReference(attempt).block(WAIT);

        List<Map<String, Object>> items = adyen.takeNotifications();
        assertThat(items).singleElement().satisfies(item -> assertThat(item).containsEntry("success", false)
                .containsEntry("eventCode", "TECHNICAL_CANCEL"));
        String batch = FakeAdyen.notification(ACCOUNT, HMAC_KEY, items);
        assertThat(connector.webhooksFor("m").parse(new HttpHeaders(), batch.getBytes(StandardCharsets.UTF_8)))
                .isEmpty();
    }

    @Test
    void anOrphanedChargeIsGivenBackByAReversalAndItsCancelOrRefundSettlesTheRefund() {
        String id = paymentId();
        GatewayOutcome charged = submit(charge(id, 1, 5000, "CLP", "pm_stored_orphan"));
        String refundId = "re_" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);

        RefundOutcome sent = connector.gateway().refund(new RefundRequest(refundId, id, 1, charged.reference(), 5000,
                "CLP", "m", "adyen", true)).block(WAIT);

        assertThat(sent.status()).isEqualTo(GatewayStatus.PROCESSING);
        assertThat(adyen.refundsOf(charged.reference())).as("never /refunds for an orphan").isEmpty();
        assertThat(adyen.reversalsOf(charged.reference())).singleElement().satisfies(reversal -> assertThat(reversal)
                .containsEntry("reference", refundId).containsEntry("idempotencyKey", refundId)
                .containsEntry("action", "refund"));
        ConnectorNotification settled = sentByAdyen().get(0);
        assertThat(settled.type()).isEqualTo("CANCEL_OR_REFUND");
        assertThat(settled.refundId()).isEqualTo(refundId);
        assertThat(settled.status()).isEqualTo(GatewayStatus.SUCCEEDED);
        assertThat(settled.amount()).isEqualTo(5000L);
    }

    @Test
    void aRefundIsSentInAdyensUnitsAndItsFailureOrReversalFailsIt() {
        String id = paymentId();
        GatewayOutcome charged = submit(charge(id, 1, 8000, "ISK", "pm_stored_refund"));
        String refundId = "re_" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);

        RefundOutcome sent = connector.gateway().refund(new RefundRequest(refundId, id, 1, charged.reference(), 3000,
                "ISK", "m", "adyen")).block(WAIT);

        assertThat(adyen.refundsOf(charged.reference()).get(0).get("amount"))
                .isEqualTo(Map.of("currency", "ISK", "value", 300000L));
        adyen.refundFailed(sent.reference()).refundReversed(sent.reference());
        List<ConnectorNotification> notifications = sentByAdyen();
        assertThat(notifications).extracting(ConnectorNotification::type)
                .containsExactly("REFUND_FAILED", "REFUNDED_REVERSED");
        assertThat(notifications).allSatisfy(failed -> {
            assertThat(failed.refundId()).isEqualTo(refundId);
            assertThat(failed.status()).isEqualTo(GatewayStatus.FAILED);
            assertThat(failed.amount()).isEqualTo(3000L);
        });
    }
}
