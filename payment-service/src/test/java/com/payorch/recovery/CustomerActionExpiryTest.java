package com.payorch.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.gateway.GatewayOutcome;
import com.payorch.gateway.GatewayStatus;
import com.payorch.payments.CustomerAction;
import com.payorch.payments.Payment;
import com.payorch.statemachine.PaymentStatus;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The expiry job's own decisions: whom it still acts on, and which look-up answers it applies. */
class CustomerActionExpiryTest {

    private static final Instant NOW = Instant.parse("2026-12-05T12:00:00Z");

    @Test
    void onlyAPaymentStillWaitingForItsCustomerGetsTheExpirysCancel() {
        assertThat(CustomerActionExpiry.stillWaiting(payment(PaymentStatus.REQUIRES_ACTION))).isTrue();
        for (PaymentStatus moved : EnumSet.complementOf(EnumSet.of(PaymentStatus.REQUIRES_ACTION))) {
            // A completion or a webhook moved it on between the job's query and its versioned write.
            assertThat(CustomerActionExpiry.stillWaiting(payment(moved))).as(moved.name()).isFalse();
        }
    }

    @Test
    void aLookUpIsAppliedOnlyWhenTheConnectorSettledTheAttempt() {
        // The customer paid (or was authorised) before the cancel: a success; declined or cancelled: the end.
        for (GatewayStatus settled : EnumSet.of(GatewayStatus.SUCCEEDED, GatewayStatus.AUTHORIZED,
                GatewayStatus.FAILED, GatewayStatus.CANCELLED)) {
            assertThat(CustomerActionExpiry.settles(outcome(settled))).as(settled.name()).isTrue();
        }
        // Still waiting (for the customer or the connector): applying it would move a waiting payment to PROCESSING
        // or change nothing, so the next look asks again.
        for (GatewayStatus open : EnumSet.of(GatewayStatus.PROCESSING, GatewayStatus.REQUIRES_ACTION,
                GatewayStatus.CAPTURE_FAILED)) {
            assertThat(CustomerActionExpiry.settles(outcome(open))).as(open.name()).isFalse();
        }
    }

    @Test
    void theJobsTransitionsAreRecoverysUnderItsOwnName() {
        assertThat(CustomerActionExpiry.KIND).isEqualTo("customer-action-expiry");
        assertThat(CustomerActionExpiry.ORIGIN.source().value()).isEqualTo("recovery");
        assertThat(CustomerActionExpiry.ORIGIN.sourceId()).isEqualTo(CustomerActionExpiry.KIND);
    }

    private static GatewayOutcome outcome(GatewayStatus status) {
        return new GatewayOutcome("pay_1", 1, "sandbox", "ch_1", status, null);
    }

    private static Payment payment(PaymentStatus status) {
        return new Payment("pay_1", "demo", "bk_1", 12000, "JPY", "pm_card_3ds", "guest@example.com", "Room 101",
                status, null, 1, "sandbox", 3, NOW, NOW, Map.of(), 0, com.payorch.payments.Hold.AUTOMATIC,
                new CustomerAction("https://shop.example/back", "https://pay.example/3ds", NOW.minusSeconds(7200)));
    }
}
