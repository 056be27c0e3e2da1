package com.payorch.payments;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.gateway.CaptureMethod;
import com.payorch.gateway.GatewayOutcome;
import com.payorch.gateway.GatewayStatus;
import com.payorch.statemachine.PaymentStatus;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a connector's word means for a payment's customer action, before it becomes life-cycle steps. */
class CustomerActionOutcomesTest {

    private static final Instant NOW = Instant.parse("2026-12-02T19:00:00Z");
    private static final String PAGE = "https://psp.example/authenticate/ch_1";

    @Test
    void aCustomerWhoCannotActFailsThePaymentAuthenticationRequired() {
        GatewayOutcome asked = GatewayOutcome.requiresAction("pay_1", 1, "sandbox", "ch_1", PAGE);

        GatewayOutcome applied = CustomerActionOutcomes.asApplied(payment(PaymentStatus.PENDING, null, Hold.AUTOMATIC),
                asked);

        assertThat(applied.status()).isEqualTo(GatewayStatus.FAILED);
        assertThat(applied.failureReason()).isEqualTo(CustomerAction.AUTHENTICATION_REQUIRED);
    }

    @Test
    void aConnectorThatNamesNoPageFailsThePaymentEvenWithAReturnUrl() {
        GatewayOutcome asked = new GatewayOutcome("pay_1", 1, "adyen", "psp_1", GatewayStatus.REQUIRES_ACTION, null,
                null);

        GatewayOutcome applied = CustomerActionOutcomes.asApplied(
                payment(PaymentStatus.PENDING, "https://shop.example/back", Hold.AUTOMATIC), asked);

        assertThat(applied.status()).isEqualTo(GatewayStatus.FAILED);
        assertThat(applied.failureReason()).isEqualTo(CustomerAction.AUTHENTICATION_REQUIRED);
    }

    @Test
    void aCustomerWhoCanActIsAskedAndThePageIsRecordedOnThePayment() {
        GatewayOutcome asked = GatewayOutcome.requiresAction("pay_1", 1, "sandbox", "ch_1", PAGE);
        Payment pending = payment(PaymentStatus.PENDING, "https://shop.example/back", Hold.AUTOMATIC);

        assertThat(CustomerActionOutcomes.asApplied(pending, asked)).isEqualTo(asked);
        assertThat(CustomerActionOutcomes.asking(pending, asked).action().nextActionUrl()).isEqualTo(PAGE);
        assertThat(CustomerActionOutcomes.asking(pending, asked).action().returnUrl())
                .isEqualTo("https://shop.example/back");
    }

    @Test
    void aConfirmedCancelTheExpiryAskedForCarriesAuthenticationExpired() {
        Hold expired = Hold.MANUAL.cancelRequested(NOW, CustomerAction.AUTHENTICATION_EXPIRED);
        GatewayOutcome cancelled = new GatewayOutcome("pay_1", 1, "sandbox", "ch_1", GatewayStatus.CANCELLED,
                "cancelled");

        GatewayOutcome applied = CustomerActionOutcomes.asApplied(
                payment(PaymentStatus.REQUIRES_ACTION, "https://shop.example/back", expired), cancelled);

        assertThat(applied.failureReason()).isEqualTo(CustomerAction.AUTHENTICATION_EXPIRED);
    }

    @Test
    void aMerchantsCancelOfAHoldWaitingForItsCustomerKeepsTheConnectorsWord() {
        Hold released = Hold.MANUAL.cancelRequested(NOW, "guest left");
        GatewayOutcome cancelled = new GatewayOutcome("pay_1", 1, "sandbox", "ch_1", GatewayStatus.CANCELLED, null);

        assertThat(CustomerActionOutcomes.asApplied(
                payment(PaymentStatus.REQUIRES_ACTION, "https://shop.example/back", released), cancelled))
                .isEqualTo(cancelled);
    }

    @Test
    void theConnectorGetsTheReturnUrlWithThePaymentId() {
        assertThat(payment(PaymentStatus.PENDING, "https://shop.example/back?o=1", Hold.AUTOMATIC).chargeRequest()
                .returnUrl()).isEqualTo("https://shop.example/back?o=1&payment_id=pay_1");
        assertThat(payment(PaymentStatus.PENDING, null, Hold.of(CaptureMethod.MANUAL)).chargeRequest().returnUrl())
                .isNull();
    }

    private static Payment payment(PaymentStatus status, String returnUrl, Hold hold) {
        return new Payment("pay_1", "m_1", "bk_1", 1000, "EUR", "pm_card_3ds", null, null, status, null, 1, "sandbox",
                3, NOW, NOW, Map.of(), 0, hold, CustomerAction.returningTo(returnUrl));
    }
}
