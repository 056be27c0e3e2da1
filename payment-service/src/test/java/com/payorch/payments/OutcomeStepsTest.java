package com.payorch.payments;

import static com.payorch.gateway.GatewayStatus.AUTHORIZED;
import static com.payorch.gateway.GatewayStatus.CANCELLED;
import static com.payorch.gateway.GatewayStatus.CAPTURE_FAILED;
import static com.payorch.gateway.GatewayStatus.FAILED;
import static com.payorch.gateway.GatewayStatus.PROCESSING;
import static com.payorch.gateway.GatewayStatus.REQUIRES_ACTION;
import static com.payorch.gateway.GatewayStatus.SUCCEEDED;
import static com.payorch.statemachine.PaymentEvent.AUTHORIZE;
import static com.payorch.statemachine.PaymentEvent.CANCEL;
import static com.payorch.statemachine.PaymentEvent.CAPTURE;
import static com.payorch.statemachine.PaymentEvent.CAPTURE_FAIL;
import static com.payorch.statemachine.PaymentEvent.FAIL;
import static com.payorch.statemachine.PaymentEvent.REQUIRE_ACTION;
import static com.payorch.statemachine.PaymentEvent.SUBMIT;
import static com.payorch.statemachine.PaymentEvent.SUCCEED;
import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.gateway.GatewayStatus;
import com.payorch.statemachine.PaymentEvent;
import com.payorch.statemachine.PaymentLifecycle;
import com.payorch.statemachine.PaymentStatus;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every (outcome, status) pair of the one outcome-to-steps mapping, for a hold and for a charge, without Spring. */
class OutcomeStepsTest {

    private static final List<PaymentEvent> NONE = List.of();

    /** (outcome, status, steps of a manual-capture payment, steps of an automatic one). */
    static Stream<Arguments> table() {
        return Stream.of(
                row(PROCESSING, PaymentStatus.PENDING, List.of(SUBMIT), List.of(SUBMIT)),
                row(PROCESSING, PaymentStatus.REQUIRES_ACTION, List.of(SUBMIT), List.of(SUBMIT)),
                row(PROCESSING, PaymentStatus.PROCESSING, NONE, NONE),
                row(PROCESSING, PaymentStatus.AUTHORIZED, NONE, NONE),
                row(PROCESSING, PaymentStatus.CAPTURING, NONE, NONE),
                row(PROCESSING, PaymentStatus.COMPLETED, NONE, NONE),
                row(PROCESSING, PaymentStatus.FAILED, NONE, NONE),
                row(PROCESSING, PaymentStatus.CANCELLED, NONE, NONE),

                row(AUTHORIZED, PaymentStatus.PENDING, List.of(SUBMIT, AUTHORIZE), List.of(SUBMIT, AUTHORIZE)),
                row(AUTHORIZED, PaymentStatus.REQUIRES_ACTION, List.of(AUTHORIZE), List.of(AUTHORIZE)),
                row(AUTHORIZED, PaymentStatus.PROCESSING, List.of(AUTHORIZE), List.of(AUTHORIZE)),
                row(AUTHORIZED, PaymentStatus.AUTHORIZED, NONE, NONE),
                row(AUTHORIZED, PaymentStatus.CAPTURING, NONE, NONE),
                row(AUTHORIZED, PaymentStatus.COMPLETED, NONE, NONE),
                row(AUTHORIZED, PaymentStatus.FAILED, NONE, NONE),
                row(AUTHORIZED, PaymentStatus.CANCELLED, NONE, NONE),

                row(SUCCEEDED, PaymentStatus.PENDING, List.of(SUBMIT, SUCCEED), List.of(SUBMIT, SUCCEED)),
                row(SUCCEEDED, PaymentStatus.REQUIRES_ACTION, List.of(SUCCEED), List.of(SUCCEED)),
                row(SUCCEEDED, PaymentStatus.PROCESSING, List.of(SUCCEED), List.of(SUCCEED)),
                row(SUCCEEDED, PaymentStatus.AUTHORIZED, List.of(CAPTURE, SUCCEED), List.of(CAPTURE, SUCCEED)),
                row(SUCCEEDED, PaymentStatus.CAPTURING, List.of(SUCCEED), List.of(SUCCEED)),
                row(SUCCEEDED, PaymentStatus.COMPLETED, NONE, NONE),
                row(SUCCEEDED, PaymentStatus.FAILED, NONE, NONE),
                row(SUCCEEDED, PaymentStatus.CANCELLED, NONE, NONE),

                row(CAPTURE_FAILED, PaymentStatus.PENDING, NONE, NONE),
                row(CAPTURE_FAILED, PaymentStatus.REQUIRES_ACTION, NONE, NONE),
                row(CAPTURE_FAILED, PaymentStatus.PROCESSING, NONE, NONE),
                row(CAPTURE_FAILED, PaymentStatus.AUTHORIZED, NONE, NONE),
                row(CAPTURE_FAILED, PaymentStatus.CAPTURING, List.of(CAPTURE_FAIL), List.of(CAPTURE_FAIL)),
                row(CAPTURE_FAILED, PaymentStatus.COMPLETED, NONE, NONE),
                row(CAPTURE_FAILED, PaymentStatus.FAILED, NONE, NONE),
                row(CAPTURE_FAILED, PaymentStatus.CANCELLED, NONE, NONE),

                row(CANCELLED, PaymentStatus.PENDING, List.of(CANCEL), List.of(FAIL)),
                row(CANCELLED, PaymentStatus.REQUIRES_ACTION, List.of(CANCEL), List.of(FAIL)),
                row(CANCELLED, PaymentStatus.PROCESSING, List.of(CANCEL), List.of(FAIL)),
                row(CANCELLED, PaymentStatus.AUTHORIZED, List.of(CANCEL), List.of(CANCEL)),
                row(CANCELLED, PaymentStatus.CAPTURING, NONE, NONE),
                row(CANCELLED, PaymentStatus.COMPLETED, NONE, NONE),
                row(CANCELLED, PaymentStatus.FAILED, NONE, NONE),
                row(CANCELLED, PaymentStatus.CANCELLED, NONE, NONE),

                row(FAILED, PaymentStatus.PENDING, List.of(FAIL), List.of(FAIL)),
                row(FAILED, PaymentStatus.REQUIRES_ACTION, List.of(FAIL), List.of(FAIL)),
                row(FAILED, PaymentStatus.PROCESSING, List.of(FAIL), List.of(FAIL)),
                row(FAILED, PaymentStatus.AUTHORIZED, NONE, NONE),
                row(FAILED, PaymentStatus.CAPTURING, NONE, NONE),
                row(FAILED, PaymentStatus.COMPLETED, NONE, NONE),
                row(FAILED, PaymentStatus.FAILED, NONE, NONE),
                row(FAILED, PaymentStatus.CANCELLED, NONE, NONE),

                row(REQUIRES_ACTION, PaymentStatus.PENDING, List.of(REQUIRE_ACTION), List.of(REQUIRE_ACTION)),
                row(REQUIRES_ACTION, PaymentStatus.PROCESSING, List.of(REQUIRE_ACTION), List.of(REQUIRE_ACTION)),
                row(REQUIRES_ACTION, PaymentStatus.REQUIRES_ACTION, NONE, NONE),
                row(REQUIRES_ACTION, PaymentStatus.AUTHORIZED, NONE, NONE),
                row(REQUIRES_ACTION, PaymentStatus.CAPTURING, NONE, NONE),
                row(REQUIRES_ACTION, PaymentStatus.COMPLETED, NONE, NONE),
                row(REQUIRES_ACTION, PaymentStatus.FAILED, NONE, NONE),
                row(REQUIRES_ACTION, PaymentStatus.CANCELLED, NONE, NONE));
    }

    private static Arguments row(GatewayStatus outcome, PaymentStatus status, List<PaymentEvent> manual,
                                 List<PaymentEvent> automatic) {
        return Arguments.of(outcome, status, manual, automatic);
    }

    @ParameterizedTest(name = "{0} on a {1} payment -> manual {2}, automatic {3}")
    @MethodSource("table")
    void outcomeOnStatus(GatewayStatus outcome, PaymentStatus status, List<PaymentEvent> manual,
                         List<PaymentEvent> automatic) {
        assertThat(OutcomeSteps.of(outcome, status, true)).isEqualTo(manual);
        assertThat(OutcomeSteps.of(outcome, status, false)).isEqualTo(automatic);
    }

    /** Every list of steps is a path the payment life cycle allows from that status. */
    @ParameterizedTest(name = "{0} on a {1} payment is a path of the life cycle")
    @MethodSource("table")
    void stepsArePathsOfTheLifeCycle(GatewayStatus outcome, PaymentStatus status, List<PaymentEvent> manual,
                                     List<PaymentEvent> automatic) {
        PaymentLifecycle lifecycle = new PaymentLifecycle();
        for (List<PaymentEvent> steps : List.of(manual, automatic)) {
            PaymentStatus at = status;
            for (PaymentEvent step : steps) {
                PaymentStatus next = lifecycle.next(at, step).block(Duration.ofSeconds(5));
                assertThat(next).as("%s from %s", step, at).isNotNull();
                at = next;
            }
        }
    }

    /** A cancel the expiry asked for fails even a hold: the customer did not act in time (authentication_expired). */
    @Test
    void anExpiredActionsConfirmedCancelFailsTheManualPaymentToo() {
        assertThat(OutcomeSteps.of(CANCELLED, PaymentStatus.REQUIRES_ACTION, true, true)).containsExactly(FAIL);
        assertThat(OutcomeSteps.of(CANCELLED, PaymentStatus.REQUIRES_ACTION, false, true)).containsExactly(FAIL);
        assertThat(OutcomeSteps.of(CANCELLED, PaymentStatus.AUTHORIZED, true, true)).containsExactly(CANCEL);
    }

    @Test
    void theTableCoversEveryPair() {
        assertThat(table().count()).isEqualTo((long) GatewayStatus.values().length * PaymentStatus.values().length);
    }
}
