package com.payorch.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.gateway.CaptureMethod;
import com.payorch.gateway.ConnectorNotification;
import com.payorch.gateway.GatewayStatus;
import com.payorch.payments.Hold;
import com.payorch.payments.Payment;
import com.payorch.statemachine.PaymentStatus;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which amounts a charge notification may name: the payment's, or for a hold's capture or release, a part of it. */
class NotificationAmountTest {

    @ParameterizedTest(name = "{0} capture, {1} {2} {3} -> {4}")
    @CsvSource({
            "AUTOMATIC, SUCCEEDED,      10000, EUR, true",
            "AUTOMATIC, SUCCEEDED,       4000, EUR, false",
            "AUTOMATIC, FAILED,          4000, EUR, false",
            "MANUAL,    AUTHORIZED,     10000, EUR, true",
            "MANUAL,    AUTHORIZED,      4000, EUR, false",
            "MANUAL,    SUCCEEDED,       4000, EUR, true",
            "MANUAL,    SUCCEEDED,      10000, EUR, true",
            "MANUAL,    SUCCEEDED,      10001, EUR, false",
            "MANUAL,    CAPTURE_FAILED,  4000, EUR, true",
            "MANUAL,    CANCELLED,          0, EUR, true",
            "MANUAL,    SUCCEEDED,       4000, USD, false",
            "MANUAL,    PROCESSING,      4000, EUR, false"
    })
    void aHoldsCaptureOrReleaseMayNameAPartNeverMore(CaptureMethod method, GatewayStatus status, long amount,
                                                     String currency, boolean matches) {
        Payment payment = new Payment("pay_1", "demo", "bk_1", 10000, "EUR", "pm_card_ok", null, null,
                PaymentStatus.CAPTURING, null, 1, "adyen", 3, Instant.EPOCH, Instant.EPOCH, Map.of(), 0,
                Hold.of(method));
        ConnectorNotification notification = new ConnectorNotification("n_1", "CAPTURE", "pay_1", "psp_1", status,
                amount, currency, null);

        assertThat(WebhookApplier.amountMatches(notification, payment)).isEqualTo(matches);
    }
}
