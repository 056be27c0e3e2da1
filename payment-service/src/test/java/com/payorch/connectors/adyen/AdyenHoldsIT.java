package com.payorch.connectors.adyen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.payorch.fakes.FakeAdyen;
import com.payorch.gateway.CancelRequest;
import com.payorch.gateway.CaptureMethod;
import com.payorch.gateway.CaptureRequest;
import com.payorch.gateway.ChargeRequest;
import com.payorch.gateway.ConnectorNotification;
import com.payorch.gateway.ConnectorRefusedException;
import com.payorch.gateway.GatewayException;
import com.payorch.gateway.GatewayOutcome;
import com.payorch.gateway.GatewayStatus;
import com.payorch.gateway.GatewayUnavailableException;
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

/**
 * Holds at Adyen (contract v3, "authorise now, capture later, cancel"), against {@link FakeAdyen} over real HTTP, at
 * the gateway and the webhook adapter: what Adyen receives for a manual submit, a capture and a cancel, and what the
 * connector makes of Adyen's AUTHORISATION, CAPTURE, CAPTURE_FAILED, CANCELLATION and TECHNICAL_CANCEL. What the
 * payment then does is the core's part.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AdyenHoldsIT {

    private static final String API_KEY = "AQE_FakeHoldsAdyenKeyDoNotLog_0023";
    private static final String ACCOUNT = "PayorchHoldsECOM";
    private static final String HMAC_KEY = "44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056";
    private static final Duration WAIT = Duration.ofSeconds(20);

    private final FakeAdyen adyen = new FakeAdyen().acceptKey(API_KEY);
    private final AdyenConnector connector;

    AdyenHoldsIT() {
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

    private static ChargeRequest manual(String paymentId, long amount, String currency, String token) {
        return new ChargeRequest(paymentId, 1, amount, currency, token, "m", "adyen", null, CaptureMethod.MANUAL);
    }

    private GatewayOutcome submit(ChargeRequest request) {
        return connector.gateway().submit(request).block(WAIT);
    }

    /** An authorised hold, and the fake's queue emptied of anything before it. */
    private ChargeRequest held(ChargeRequest request) {
        GatewayOutcome authorised = submit(request);
        assertThat(authorised.status()).isEqualTo(GatewayStatus.AUTHORIZED);
        adyen.takeNotifications();
        return request.withReference(authorised.reference());
    }

    /** The notifications Adyen sent since the last call, signed, through the merchant's endpoint adapter. */
    private List<ConnectorNotification> sentByAdyen() {
        List<Map<String, Object>> items = adyen.takeNotifications();
        assertThat(items).as("Adyen has notifications to send").isNotEmpty();
        String batch = FakeAdyen.notification(ACCOUNT, HMAC_KEY, items);
        return connector.webhooksFor("m").parse(new HttpHeaders(), batch.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aManualSubmitAsksAdyenOnlyToAuthoriseAndItsAuthorisationIsAHold() {
        String id = paymentId();

        GatewayOutcome outcome = submit(manual(id, 1000, "EUR", "pm_stored_hold"));

        assertThat(outcome.status()).isEqualTo(GatewayStatus.AUTHORIZED);
        Map<String, Object> made = adyen.paymentsFor(id).get(0);
        assertThat(made).containsEntry("manualCapture", true).containsEntry("state", "authorised");
        assertThat(made.get("metadata")).isEqualTo(Map.of("paymentId", id, "attempt", "1", "captureMethod", "manual"));

        adyen.authorisation(outcome.reference(), true);
        ConnectorNotification authorised = sentByAdyen().get(0);
        assertThat(authorised.status()).isEqualTo(GatewayStatus.AUTHORIZED);
        assertThat(authorised.attempt()).isEqualTo(1);
        assertThat(authorised.reference()).isEqualTo(outcome.reference());
    }

    @Test
    void anAutomaticSubmitStaysACharge() {
        String id = paymentId();

        GatewayOutcome outcome = submit(new ChargeRequest(id, 1, 1000, "EUR", "pm_stored_auto", "m", "adyen"));

        assertThat(outcome.status()).isEqualTo(GatewayStatus.SUCCEEDED);
        assertThat(adyen.paymentsFor(id).get(0)).containsEntry("manualCapture", false)
                .containsEntry("state", "captured");
        adyen.authorisation(outcome.reference(), true);
        assertThat(sentByAdyen().get(0).status()).isEqualTo(GatewayStatus.SUCCEEDED);
    }

    @Test
    void aPartialCaptureIsSentInAdyensUnitsWithItsOwnKeyAndItsNotificationCarriesTheCapturedAmount() {
        String id = paymentId();
        ChargeRequest hold = held(manual(id, 5000, "CLP", "pm_stored_clp_hold"));
        CaptureRequest capture = new CaptureRequest(hold, 3000, 1);

        GatewayOutcome accepted = connector.gateway().capture(capture).block(WAIT);
        GatewayOutcome again = connector.gateway().capture(capture).block(WAIT);

        assertThat(accepted.status()).as("Adyen only acknowledges a capture").isEqualTo(GatewayStatus.PROCESSING);
        assertThat(accepted.reference()).as("the payment's pspReference").isEqualTo(hold.reference());
        assertThat(again).isEqualTo(accepted);
        List<Map<String, Object>> captures = adyen.capturesOf(hold.reference());
        assertThat(captures).as("the same key is one capture").singleElement().satisfies(sent -> assertThat(sent)
                .containsEntry("amount", Map.of("currency", "CLP", "value", 300000L))
                .containsEntry("merchantAccount", ACCOUNT)
                .containsEntry("reference", id + "-capture-1")
                .containsEntry("idempotencyKey", id + "-capture-1"));
        assertThat(adyen.stateOf(hold.reference())).isEqualTo("captured");

        ConnectorNotification captured = sentByAdyen().get(0);
        assertThat(captured.type()).isEqualTo("CAPTURE");
        assertThat(captured.status()).isEqualTo(GatewayStatus.SUCCEEDED);
        assertThat(captured.amount()).as("the captured amount, in ISO units").isEqualTo(3000L);
        assertThat(captured.reference()).isEqualTo(hold.reference());
        assertThat(captured.paymentId()).isEqualTo(id);
        assertThat(captured.attempt()).isEqualTo(1);
    }

    @Test
    void aCaptureTheCardSchemeRejectsIsCaptureFailedWithItsReasonAndTheMoneyStaysHeld() {
        String id = paymentId();
        ChargeRequest hold = held(manual(id, 1000, "EUR", FakeAdyen.CAPTURE_FAILS + "_a"));

        GatewayOutcome accepted = connector.gateway().capture(new CaptureRequest(hold, 1000, 1)).block(WAIT);

        assertThat(accepted.status()).isEqualTo(GatewayStatus.PROCESSING);
        ConnectorNotification failed = sentByAdyen().get(0);
        assertThat(failed.type()).isEqualTo("CAPTURE_FAILED");
        assertThat(failed.status()).isEqualTo(GatewayStatus.CAPTURE_FAILED);
        assertThat(failed.failureReason()).isEqualTo(FakeAdyen.CAPTURE_REJECTED);
        assertThat(failed.reference()).isEqualTo(hold.reference());
        assertThat(failed.paymentId()).isEqualTo(id);
        assertThat(adyen.stateOf(hold.reference())).isEqualTo("authorised");
        assertThat(adyen.capturedFor(id)).isZero();
    }

    @Test
    void aReleasedHoldIsConfirmedByCancellationAndCannotBeCapturedAfterwards() {
        String id = paymentId();
        ChargeRequest hold = held(manual(id, 1000, "EUR", "pm_stored_release"));
        CancelRequest cancel = new CancelRequest(hold, "requested_by_customer");

        GatewayOutcome accepted = connector.gateway().cancel(cancel).block(WAIT);
        connector.gateway().cancel(cancel).block(WAIT);

        assertThat(accepted.status()).isEqualTo(GatewayStatus.PROCESSING);
        assertThat(accepted.reference()).isEqualTo(hold.reference());
        assertThat(adyen.releasesOf(hold.reference())).as("the same key is one cancel").singleElement()
                .satisfies(sent -> assertThat(sent).containsEntry("idempotencyKey", id + "-cancel")
                        .containsEntry("reference", id + "-cancel").containsEntry("merchantAccount", ACCOUNT));
        assertThat(adyen.cancelsFor(id)).as("by pspReference, not by our reference").isEmpty();
        ConnectorNotification cancelled = sentByAdyen().get(0);
        assertThat(cancelled.type()).isEqualTo("CANCELLATION");
        assertThat(cancelled.status()).isEqualTo(GatewayStatus.CANCELLED);
        assertThat(cancelled.confirmsNothingTaken()).isFalse();
        assertThat(cancelled.reference()).isEqualTo(hold.reference());
        assertThat(cancelled.paymentId()).isEqualTo(id);
        assertThat(cancelled.amount()).isEqualTo(1000L);

        connector.gateway().capture(new CaptureRequest(hold, 1000, 1)).block(WAIT);
        ConnectorNotification refused = sentByAdyen().get(0);
        assertThat(refused.status()).isEqualTo(GatewayStatus.CAPTURE_FAILED);
        assertThat(adyen.capturedFor(id)).isZero();
    }

    @Test
    void aHoldWithoutAPspReferenceIsCancelledByOurReferenceAndTheTechnicalCancelBindsToTheCancelsReference() {
        String id = paymentId();
        ChargeRequest never = manual(id, 1000, "EUR", "pm_stored_never_sent");

        GatewayOutcome accepted = connector.gateway().cancel(new CancelRequest(never, null)).block(WAIT);

        assertThat(accepted.status()).isEqualTo(GatewayStatus.PROCESSING);
        assertThat(adyen.cancelsFor(id)).singleElement().satisfies(sent -> assertThat(sent)
                .containsEntry("idempotencyKey", id + "-cancel").containsEntry("pspReference", accepted.reference()));
        ConnectorNotification confirmed = sentByAdyen().get(0);
        assertThat(confirmed.type()).isEqualTo("TECHNICAL_CANCEL");
        assertThat(confirmed.status()).isEqualTo(GatewayStatus.CANCELLED);
        assertThat(confirmed.confirmsNothingTaken()).isTrue();
        assertThat(confirmed.reference()).as("Adyen held nothing: the cancel's pspReference")
                .isEqualTo(accepted.reference());
    }

    @Test
    void aPendingHoldCancelledByOurReferenceIsConfirmedWithThePaymentsPspReference() {
        String id = paymentId();
        ChargeRequest pending = manual(id, 1000, "EUR", "pm_card_processing_hold");
        GatewayOutcome received = submit(pending);
        assertThat(received.status()).isEqualTo(GatewayStatus.PROCESSING);
        adyen.takeNotifications();

        connector.gateway().cancel(new CancelRequest(pending, null)).block(WAIT);

        ConnectorNotification confirmed = sentByAdyen().get(0);
        assertThat(confirmed.status()).isEqualTo(GatewayStatus.CANCELLED);
        assertThat(confirmed.confirmsNothingTaken()).isTrue();
        assertThat(confirmed.reference()).isEqualTo(received.reference());
        assertThat(confirmed.attempt()).isEqualTo(1);
        assertThat(adyen.settleReceived(received.reference(), true)).as("the cancel got there first")
                .isEqualTo("cancelled");
    }

    @Test
    void aReceivedManualPaymentThatAdyenAuthorisesLaterStaysAuthorised() {
        String id = paymentId();
        GatewayOutcome received = submit(manual(id, 1000, "EUR", "pm_card_processing_later"));

        assertThat(adyen.settleReceived(received.reference(), true)).isEqualTo("authorised");
        adyen.authorisation(received.reference(), true);
        assertThat(sentByAdyen().get(0).status()).isEqualTo(GatewayStatus.AUTHORIZED);
    }

    @Test
    void aCaptureWithoutAPspReferenceCannotBeSentAndSaysSoWithoutClaimingNothingWasCaptured() {
        String id = paymentId();
        ChargeRequest unknown = manual(id, 1000, "EUR", "pm_stored_unknown");

        assertThatThrownBy(() -> connector.gateway().capture(new CaptureRequest(unknown, 1000, 1)).block(WAIT))
                .isInstanceOf(GatewayException.class)
                .isNotInstanceOf(ConnectorRefusedException.class)
                .isNotInstanceOf(GatewayUnavailableException.class)
                .hasMessageContaining("no pspReference");
        assertThat(adyen.capturesFor(id)).isEmpty();
    }

    @Test
    void anAmountAdyenCannotExpressIsNotCaptured() {
        String id = paymentId();
        ChargeRequest hold = held(manual(id, 100000, "CVE", "pm_stored_cve_hold"));

        assertThatThrownBy(() -> connector.gateway().capture(new CaptureRequest(hold, 12345, 1)).block(WAIT))
                .isInstanceOf(ConnectorRefusedException.class).hasMessageContaining("CVE 12345");
        assertThat(adyen.capturesOf(hold.reference())).isEmpty();
    }
}
