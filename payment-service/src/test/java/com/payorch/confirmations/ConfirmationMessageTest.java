package com.payorch.confirmations;

import static org.assertj.core.api.Assertions.assertThat;

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
}
