package com.payorch.payments;

import com.payorch.gateway.GatewayStatus;
import com.payorch.statemachine.PaymentEvent;
import com.payorch.statemachine.PaymentStatus;
import java.util.List;

/**
 * The one mapping from a connector's outcome about the current attempt to life-cycle events: the same for the live
 * submit, webhooks and the reconciler. No steps means the outcome is late, out of order, or contradicts a terminal
 * state: it changes nothing (a success for a FAILED payment is an orphaned charge: {@link GatewayOutcomes} decides
 * that before asking here).
 */
final class OutcomeSteps {

    private OutcomeSteps() {
    }

    public static List<PaymentEvent> of(GatewayStatus outcome, PaymentStatus current) {
        return switch (outcome) {
            case PROCESSING -> current == PaymentStatus.PENDING ? List.of(PaymentEvent.SUBMIT) : List.of();
            case SUCCEEDED -> switch (current) {
                case PENDING -> List.of(PaymentEvent.SUBMIT, PaymentEvent.SUCCEED);
                case PROCESSING -> List.of(PaymentEvent.SUCCEED);
                default -> List.of();
            };
            case FAILED -> current == PaymentStatus.PENDING || current == PaymentStatus.PROCESSING
                    ? List.of(PaymentEvent.FAIL) : List.of();
        };
    }
}
