package com.payorch.connectors.stripe;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.gateway.GatewayStatus;
import com.payorch.gateway.MappedStatus;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A manual-capture PaymentIntent's statuses in the port's words, beside an automatic one's: only `requires_capture`
 * (a hold) differs; `canceled` is CANCELLED for both (the payment decides what a cancelled attempt means).
 */
class StripeHoldStatusesTest {

    @ParameterizedTest(name = "{0} (manual {1}) -> {2} {3}")
    @CsvSource(nullValues = "-", value = {
            "requires_capture,        true,  AUTHORIZED, -",
            "requires_capture,        false, PROCESSING, -",
            "canceled,                true,  CANCELLED,  -",
            "canceled,                false, CANCELLED,  -",
            "succeeded,               true,  SUCCEEDED,  -",
            "processing,              true,  PROCESSING, -",
            "requires_payment_method, true,  FAILED,     payment_failed",
            "requires_action,         true,  FAILED,     authentication_required"})
    void manualAndAutomatic(String status, boolean manual, GatewayStatus expected, String reason) {
        assertThat(StripeStatuses.charge(status, manual, null, null)).isEqualTo(new MappedStatus(expected, reason));
    }

    @ParameterizedTest(name = "cancellation_reason {0} -> {1}")
    @CsvSource(nullValues = "-", value = {
            "automatic,             authorization_expired",
            "requested_by_customer, requested_by_customer",
            "abandoned,             abandoned",
            "-,                     canceled"})
    void cancelReasons(String cancellationReason, String expected) {
        assertThat(StripeStatuses.cancelReason(cancellationReason)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource(nullValues = "-", value = {"manual, true", "automatic, false", "automatic_async, false", "-, false"})
    void onlyAManualCaptureMethodIsAHold(String captureMethod, boolean hold) {
        assertThat(StripeStatuses.manual(captureMethod)).isEqualTo(hold);
    }
}
