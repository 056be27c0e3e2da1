package com.payorch.payments;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.events.EventType;
import com.payorch.gateway.ChargeRequest;
import com.payorch.statemachine.PaymentEvent;
import com.payorch.statemachine.PaymentStatus;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Pure decisions of the payments package, table by table, without Spring or a database. */
class PaymentDecisionsTest {

    @ParameterizedTest(name = "a live payment {0} → already paid: {1}")
    @CsvSource({
            "PENDING,    false, The booking has a payment in status PENDING; wait for it to complete or fail.",
            "PROCESSING, false, The booking has a payment in status PROCESSING; wait for it to complete or fail.",
            "COMPLETED,  true,  The booking is already paid.",
            "AUTHORIZED, true,  The booking is already paid by a hold (its payment is AUTHORIZED); capture or cancel it.",
            "CAPTURING,  true,  The booking is already paid by a hold (its payment is CAPTURING); capture or cancel it."
    })
    void theBookingGuardAnswersByTheLivePaymentsStatus(PaymentStatus live, boolean alreadyPaid, String detail) {
        BookingTaken refusal = BookingGuard.refusal(live);

        assertThat(refusal.alreadyPaid()).isEqualTo(alreadyPaid);
        assertThat(refusal.detail()).isEqualTo(detail);
    }

    @ParameterizedTest(name = "{0} → {1} writes {2}")
    @CsvSource({
            "RETRY,        PENDING,",
            "SUBMIT,       PROCESSING, PAYMENT_PROCESSING",
            "SUCCEED,      COMPLETED,  PAYMENT_COMPLETED",
            "FAIL,         FAILED,     PAYMENT_FAILED",
            "AUTHORIZE,    AUTHORIZED, PAYMENT_AUTHORIZED",
            "CAPTURE,      CAPTURING,",
            "CAPTURE_FAIL, AUTHORIZED, PAYMENT_CAPTURE_FAILED",
            "CANCEL,       CANCELLED,  PAYMENT_CANCELLED"
    })
    void eachTransitionWritesItsOutboxEventAndARetryOrACaptureSentNone(PaymentEvent step, PaymentStatus target,
                                                                       EventType event) {
        assertThat(PaymentStateChanges.eventFor(step, target)).isEqualTo(Optional.ofNullable(event));
    }

    /** The first attempt's key is the payment id, so the gateway sees the key it always saw; a retry is a new charge. */
    @ParameterizedTest(name = "attempt {0} → {1}")
    @CsvSource({"1, pay_1", "2, pay_1-attempt-2", "3, pay_1-attempt-3"})
    void theGatewayIdempotencyKeyIsOnePerAttempt(int attempt, String key) {
        assertThat(new ChargeRequest("pay_1", attempt, 12000, "JPY", "pm_card_ok").idempotencyKey()).isEqualTo(key);
    }
}
