package com.payorch.connectors.braintree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.payorch.fakes.FakeBraintree;
import com.payorch.gateway.CancelRequest;
import com.payorch.gateway.CaptureMethod;
import com.payorch.gateway.CaptureRequest;
import com.payorch.gateway.ChargeRequest;
import com.payorch.gateway.ConnectorRefusedException;
import com.payorch.gateway.GatewayException;
import com.payorch.gateway.GatewayOutcome;
import com.payorch.gateway.GatewayStatus;
import com.payorch.gateway.PaymentGateway;
import com.payorch.gateway.RefundOutcome;
import com.payorch.gateway.RefundRequest;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * Braintree's holds beyond the connector contract, against {@link FakeBraintree}: what a manual sale maps to, the
 * capture and the release found already done, refused by the sale's state, sent without a recorded transaction id,
 * and an orphaned charge given back by a void.
 */
class BraintreeHoldsIT {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String BT_MERCHANT = "bt_payorch_holds";
    private static final String PUBLIC_KEY = "pub_FakeBraintreeHoldsKey1";
    private static final String PRIVATE_KEY = "priv_FakeBraintreeHoldsKeyDoNotLog1";
    private static final FakeBraintree BRAINTREE = new FakeBraintree()
            .acceptKeys(BT_MERCHANT, PUBLIC_KEY, PRIVATE_KEY);
    private static final AtomicInteger NONCES = new AtomicInteger();

    private final BraintreeConnector connector = connector();
    private final PaymentGateway gateway = connector.gateway();

    private static BraintreeConnector connector() {
        Map<String, String> settings = Map.of(
                "payments.merchants.m.connectors.braintree.merchant-id", BT_MERCHANT,
                "payments.merchants.m.connectors.braintree.public-key", PUBLIC_KEY,
                "payments.merchants.m.connectors.braintree.private-key", PRIVATE_KEY,
                "payments.connectors.braintree.base-url", BRAINTREE.baseUrl(),
                "payments.connectors.braintree.threads", "2");
        Binder binder = new Binder(new MapConfigurationPropertySource(settings));
        return new BraintreeConnector(
                binder.bind("payments.connectors.braintree", Bindable.of(BraintreeSettings.class)).get(),
                binder.bind("payments", Bindable.of(BraintreeAccounts.class)).get());
    }

    @AfterEach
    void stop() {
        connector.destroy();
    }

    @AfterAll
    static void stopBraintree() {
        BRAINTREE.close();
    }

    private static ChargeRequest request(CaptureMethod method) {
        String paymentId = "pay_" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
        return new ChargeRequest(paymentId, 1, 4200, "EUR", "fake-valid-nonce-holds" + NONCES.incrementAndGet(),
                "m", "braintree", null, method);
    }

    private GatewayOutcome authorised() {
        ChargeRequest manual = request(CaptureMethod.MANUAL);
        GatewayOutcome outcome = gateway.submit(manual).block(WAIT);
        assertThat(outcome.status()).isEqualTo(GatewayStatus.AUTHORIZED);
        return outcome;
    }

    private static ChargeRequest charge(GatewayOutcome authorised, boolean withReference) {
        return new ChargeRequest(authorised.paymentId(), 1, 4200, "EUR", "unused", "m", "braintree",
                withReference ? authorised.reference() : null, CaptureMethod.MANUAL);
    }

    @Test
    void aManualSaleIsOnlyAuthorisedAndTheLookUpSaysSoAnAutomaticOneIsSubmittedForSettlement() {
        GatewayOutcome held = authorised();

        assertThat(BRAINTREE.withOrderId(held.paymentId())).singleElement()
                .satisfies(sale -> assertThat(sale.get("status")).isEqualTo("authorized"));
        assertThat(gateway.find(charge(held, false)).block(WAIT).status()).isEqualTo(GatewayStatus.AUTHORIZED);
        assertThat(gateway.find(charge(held, true)).block(WAIT).status()).isEqualTo(GatewayStatus.AUTHORIZED);
        assertThat(gateway.submit(request(CaptureMethod.AUTOMATIC)).block(WAIT).status())
                .isEqualTo(GatewayStatus.SUCCEEDED);
    }

    @Test
    void aPartialCaptureSettlesItsAmountAndItsResendFindsItWithoutASecondRequest() {
        GatewayOutcome held = authorised();
        CaptureRequest capture = new CaptureRequest(charge(held, true), 3000, 1);

        GatewayOutcome first = gateway.capture(capture).block(WAIT);
        GatewayOutcome again = gateway.capture(capture).block(WAIT);

        assertThat(first).isEqualTo(new GatewayOutcome(held.paymentId(), 1, "braintree", held.reference(),
                GatewayStatus.SUCCEEDED, null));
        assertThat(again).isEqualTo(first);
        assertThat(BRAINTREE.capturesOf(held.paymentId())).isEqualTo(1);
        assertThat(BRAINTREE.capturedOf(held.paymentId())).isEqualByComparingTo("30.00");
    }

    @Test
    void aCaptureWithoutARecordedIdFindsTheSaleByItsOrderId() {
        GatewayOutcome held = authorised();

        GatewayOutcome captured = gateway.capture(new CaptureRequest(charge(held, false), 4200, 1)).block(WAIT);

        assertThat(captured.status()).isEqualTo(GatewayStatus.SUCCEEDED);
        assertThat(captured.reference()).isEqualTo(held.reference());
        assertThat(BRAINTREE.capturedOf(held.paymentId())).isEqualByComparingTo("42.00");
    }

    @Test
    void aCaptureOfAVoidedSaleIsRefusedByItsStateWithBraintreesReason() {
        GatewayOutcome held = authorised();
        gateway.cancel(new CancelRequest(charge(held, true), null)).block(WAIT);

        GatewayOutcome refused = gateway.capture(new CaptureRequest(charge(held, true), 4200, 1)).block(WAIT);

        assertThat(refused.status()).isEqualTo(GatewayStatus.CAPTURE_FAILED);
        assertThat(refused.failureReason()).startsWith("capture_refused: 91507").endsWith("(transaction voided)");
        assertThat(BRAINTREE.capturesOf(held.paymentId())).isZero();
    }

    @Test
    void aCaptureAboveTheAuthorisationIsRefused() {
        GatewayOutcome held = authorised();
        ChargeRequest bigger = new ChargeRequest(held.paymentId(), 1, 5000, "EUR", "unused", "m", "braintree",
                held.reference(), CaptureMethod.MANUAL);

        GatewayOutcome refused = gateway.capture(new CaptureRequest(bigger, 5000, 1)).block(WAIT);

        assertThat(refused.status()).isEqualTo(GatewayStatus.CAPTURE_FAILED);
        assertThat(refused.failureReason()).startsWith("capture_refused: 91522");
    }

    @Test
    void aSaleCapturedForAnotherAmountIsNotThisCaptureAndStaysAmbiguous() {
        GatewayOutcome held = authorised();
        gateway.capture(new CaptureRequest(charge(held, true), 1000, 1)).block(WAIT);

        assertThatThrownBy(() -> gateway.capture(new CaptureRequest(charge(held, true), 4200, 2)).block(WAIT))
                .isExactlyInstanceOf(GatewayException.class)
                .hasMessageContaining("already submitted_for_settlement for 10.00, not 42.00");
        assertThat(BRAINTREE.capturesOf(held.paymentId())).isEqualTo(1);
    }

    @Test
    void aCaptureLostBeforeBraintreeTookItIsAmbiguousAndItsResendCaptures() {
        GatewayOutcome held = authorised();
        BRAINTREE.failNextCapture(held.paymentId(), FakeBraintree.Failure.ERROR_500_BEFORE_CHARGE);
        CaptureRequest capture = new CaptureRequest(charge(held, true), 4200, 1);

        assertThatThrownBy(() -> gateway.capture(capture).block(WAIT)).isExactlyInstanceOf(GatewayException.class);
        assertThat(BRAINTREE.capturesOf(held.paymentId())).isZero();
        assertThat(gateway.capture(capture).block(WAIT).status()).isEqualTo(GatewayStatus.SUCCEEDED);
        assertThat(BRAINTREE.capturesOf(held.paymentId())).isEqualTo(1);
    }

    @Test
    void aCaptureAnswered401IsARefusalAndCapturesNothing() {
        GatewayOutcome held = authorised();
        BRAINTREE.failNextCapture(held.paymentId(), FakeBraintree.Failure.UNAUTHORIZED);

        assertThatThrownBy(() -> gateway.capture(new CaptureRequest(charge(held, true), 4200, 1)).block(WAIT))
                .isInstanceOf(ConnectorRefusedException.class);
        assertThat(BRAINTREE.capturesOf(held.paymentId())).isZero();
    }

    @Test
    void aReleaseWithoutARecordedIdVoidsTheSaleFoundByOrderIdAndItsResendFindsItVoided() {
        GatewayOutcome held = authorised();
        CancelRequest cancel = new CancelRequest(charge(held, false), "requested_by_customer");

        GatewayOutcome first = gateway.cancel(cancel).block(WAIT);
        GatewayOutcome again = gateway.cancel(cancel).block(WAIT);

        assertThat(first).isEqualTo(new GatewayOutcome(held.paymentId(), 1, "braintree", held.reference(),
                GatewayStatus.CANCELLED, "voided"));
        assertThat(again).isEqualTo(first);
        assertThat(BRAINTREE.voidsOf(held.paymentId())).isEqualTo(1);
        assertThat(gateway.find(charge(held, true)).block(WAIT).status()).isEqualTo(GatewayStatus.CANCELLED);
    }

    @Test
    void aReleaseWithNoTransactionToFindIsAmbiguousNotARefusal() {
        ChargeRequest never = request(CaptureMethod.MANUAL);

        assertThatThrownBy(() -> gateway.cancel(new CancelRequest(never, null)).block(WAIT))
                .isExactlyInstanceOf(GatewayException.class)
                .hasMessageContaining("no sale with order id " + never.idempotencyKey());
    }

    @Test
    void aLapsedAuthorisationIsCancelledWithoutAVoid() {
        GatewayOutcome held = authorised();
        BRAINTREE.expireAuthorization(held.reference());

        GatewayOutcome released = gateway.cancel(new CancelRequest(charge(held, true), null)).block(WAIT);

        assertThat(released.status()).isEqualTo(GatewayStatus.CANCELLED);
        assertThat(released.failureReason()).isEqualTo("authorization_expired");
        assertThat(BRAINTREE.voidsOf(held.paymentId())).isZero();
        assertThat(gateway.find(charge(held, true)).block(WAIT)).isEqualTo(released);
    }

    @Test
    void aReleaseThatFindsTheSaleCapturedAnswersThatTheMoneyWasTakenAndVoidsNothing() {
        GatewayOutcome held = authorised();
        gateway.capture(new CaptureRequest(charge(held, true), 4200, 1)).block(WAIT);

        GatewayOutcome answer = gateway.cancel(new CancelRequest(charge(held, true), null)).block(WAIT);

        assertThat(answer.status()).isEqualTo(GatewayStatus.SUCCEEDED);
        assertThat(BRAINTREE.voidsOf(held.paymentId())).isZero();
        assertThat(BRAINTREE.capturedOf(held.paymentId())).isEqualByComparingTo("42.00");
    }

    @Test
    void anOrphanedAuthorisationIsGivenBackByAVoidOnceAndTheLookUpFindsItGivenBack() {
        GatewayOutcome held = authorised();
        RefundRequest giveBack = new RefundRequest("re_" + held.paymentId().substring(4), held.paymentId(), 1,
                held.reference(), 4200, "EUR", "m", "braintree", true);

        RefundOutcome first = gateway.refund(giveBack).block(WAIT);
        RefundOutcome again = gateway.refund(giveBack).block(WAIT);

        assertThat(first).isEqualTo(new RefundOutcome(giveBack.refundId(), "braintree", held.reference(),
                GatewayStatus.SUCCEEDED, null));
        assertThat(again).isEqualTo(first);
        assertThat(gateway.findRefund(giveBack).block(WAIT)).isEqualTo(first);
        assertThat(BRAINTREE.voidsOf(held.paymentId())).isEqualTo(1);
        assertThat(BRAINTREE.refundsOf(held.reference())).isEmpty();
    }

    @Test
    void anOrphanedSaleNotSettledYetIsVoidedAndASettledOneRefunded() {
        GatewayOutcome submitted = gateway.submit(request(CaptureMethod.AUTOMATIC)).block(WAIT);
        GatewayOutcome settled = gateway.submit(request(CaptureMethod.AUTOMATIC)).block(WAIT);
        BRAINTREE.settle(settled.reference());

        RefundOutcome voided = gateway.refund(orphan(submitted)).block(WAIT);
        RefundOutcome refunded = gateway.refund(orphan(settled)).block(WAIT);

        assertThat(voided.status()).isEqualTo(GatewayStatus.SUCCEEDED);
        assertThat(BRAINTREE.voidsOf(submitted.paymentId())).isEqualTo(1);
        assertThat(refunded.reference()).isNotEqualTo(settled.reference());
        assertThat(BRAINTREE.refundsOf(settled.reference())).singleElement()
                .satisfies(credit -> assertThat(new BigDecimal((String) credit.get("amount")))
                        .isEqualByComparingTo("42.00"));
        assertThat(BRAINTREE.voidsOf(settled.paymentId())).isZero();
    }

    @Test
    void aMerchantsRefundOfAnUnsettledSaleIsStillRefusedNotVoided() {
        GatewayOutcome submitted = gateway.submit(request(CaptureMethod.AUTOMATIC)).block(WAIT);
        RefundRequest refund = new RefundRequest("re_" + submitted.paymentId().substring(4), submitted.paymentId(),
                1, submitted.reference(), 1000, "EUR", "m", "braintree");

        assertThatThrownBy(() -> gateway.refund(refund).block(WAIT)).isInstanceOf(ConnectorRefusedException.class);
        assertThat(BRAINTREE.voidsOf(submitted.paymentId())).isZero();
    }

    private static RefundRequest orphan(GatewayOutcome charge) {
        return new RefundRequest("re_" + charge.paymentId().substring(4), charge.paymentId(), 1, charge.reference(),
                4200, "EUR", "m", "braintree", true);
    }
}
