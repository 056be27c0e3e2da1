package com.payorch.confirmations;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.events.Event;
import com.payorch.events.EventType;
import com.payorch.gateway.CaptureMethod;
import com.payorch.payments.Hold;
import com.payorch.payments.Payment;
import com.payorch.statemachine.PaymentStatus;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfirmationMessageTest {

    @Test
    void amountsAreShownInTheCurrencysMajorUnit() {
        assertThat(ConfirmationMessage.amount(12000, "JPY")).isEqualTo("12000");
        assertThat(ConfirmationMessage.amount(1200, "USD")).isEqualTo("12.00");
        assertThat(ConfirmationMessage.amount(5, "BHD")).isEqualTo("0.005");
    }

    @Test
    void recipientIsMaskedForLogs() {
        ConfirmationMessage message = new ConfirmationMessage("demo", "bk", "pay_1", "evt_1", "from@x", "guest@example.com",
                ConfirmationMessage.messageIdFor("evt_1"), "s", "t");
        assertThat(message.maskedRecipient()).isEqualTo("g***@example.com");
        assertThat(message.messageId()).isEqualTo("<evt_1@payorch.local>");
    }

    @Test
    void aReleasedHoldSaysNothingWasChargedAndARefundNamesWhatWasCaptured() {
        Event cancelled = new Event("evt_9", "demo", EventType.BOOKING_CANCELLED, "pay_1", "bk_1", "{}",
                Instant.EPOCH);
        Payment released = payment(PaymentStatus.CANCELLED,
                new Hold(CaptureMethod.MANUAL, 0, null, 0, Instant.EPOCH, null, Instant.EPOCH, null));
        Payment refunded = payment(PaymentStatus.COMPLETED,
                new Hold(CaptureMethod.MANUAL, 5000, null, 1, Instant.EPOCH, null, null, null));

        ConfirmationMessage release = ConfirmationMessage.cancellationOf(cancelled, released, "from@x");
        ConfirmationMessage refund = ConfirmationMessage.cancellationOf(cancelled, refunded, "from@x");

        assertThat(release.subject()).isEqualTo("Booking bk_1 cancelled: 12000 JPY released");
        assertThat(release.text()).contains("has been released; nothing was charged").doesNotContain("refunded");
        assertThat(refund.subject()).isEqualTo("Booking bk_1 cancelled: 5000 JPY refunded");
        assertThat(refund.text()).contains("Your payment of 5000 JPY (payment pay_1) has been refunded in full.");
    }

    private static Payment payment(PaymentStatus status, Hold hold) {
        return new Payment("pay_1", "demo", "bk_1", 12000, "JPY", "pm_card_ok", "guest@example.com", null, status,
                null, 1, "sandbox", 4, Instant.EPOCH, Instant.EPOCH, Map.of(), 0, hold);
    }
}
