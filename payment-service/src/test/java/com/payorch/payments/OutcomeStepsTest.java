package com.payorch.payments;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.gateway.GatewayStatus;
import com.payorch.statemachine.PaymentEvent;
import com.payorch.statemachine.PaymentStatus;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every (outcome, status) pair of the one outcome-to-steps mapping, without Spring. */
class OutcomeStepsTest {

    static Stream<Arguments> table() {
        return Stream.of(
                Arguments.of(GatewayStatus.PROCESSING, PaymentStatus.PENDING, List.of(PaymentEvent.SUBMIT)),
                Arguments.of(GatewayStatus.PROCESSING, PaymentStatus.PROCESSING, List.of()),
                Arguments.of(GatewayStatus.PROCESSING, PaymentStatus.COMPLETED, List.of()),
                Arguments.of(GatewayStatus.PROCESSING, PaymentStatus.FAILED, List.of()),
                Arguments.of(GatewayStatus.SUCCEEDED, PaymentStatus.PENDING,
                        List.of(PaymentEvent.SUBMIT, PaymentEvent.SUCCEED)),
                Arguments.of(GatewayStatus.SUCCEEDED, PaymentStatus.PROCESSING, List.of(PaymentEvent.SUCCEED)),
                Arguments.of(GatewayStatus.SUCCEEDED, PaymentStatus.COMPLETED, List.of()),
                Arguments.of(GatewayStatus.SUCCEEDED, PaymentStatus.FAILED, List.of()),
                Arguments.of(GatewayStatus.FAILED, PaymentStatus.PENDING, List.of(PaymentEvent.FAIL)),
                Arguments.of(GatewayStatus.FAILED, PaymentStatus.PROCESSING, List.of(PaymentEvent.FAIL)),
                Arguments.of(GatewayStatus.FAILED, PaymentStatus.COMPLETED, List.of()),
                Arguments.of(GatewayStatus.FAILED, PaymentStatus.FAILED, List.of()));
    }

    @ParameterizedTest(name = "{0} on a {1} payment -> {2}")
    @MethodSource("table")
    void outcomeOnStatus(GatewayStatus outcome, PaymentStatus status, List<PaymentEvent> steps) {
        assertThat(OutcomeSteps.of(outcome, status)).isEqualTo(steps);
    }

    @org.junit.jupiter.api.Test
    void theTableCoversEveryPair() {
        assertThat(table().count()).isEqualTo((long) GatewayStatus.values().length * PaymentStatus.values().length);
    }
}
