package com.payorch.payments;

import com.payorch.gateway.GatewayStatus;
import com.payorch.statemachine.PaymentEvent;
import com.payorch.statemachine.PaymentStatus;
import java.util.List;

/**
 * The one mapping from a connector's outcome about the current attempt to life-cycle events: the same for the live
 * submit, webhooks and the reconciler. No steps means the outcome is late, out of order, or contradicts a terminal
 * state: it changes nothing (a success for a payment that ended without money is an orphaned charge:
 * {@link GatewayOutcomes} decides that before asking here).
 * <p>For a hold: an authorisation moves a PENDING or PROCESSING payment to AUTHORIZED; a capture the connector
 * reports (asked by this service or not) moves AUTHORIZED or CAPTURING to COMPLETED, passing through CAPTURING; a
 * refused capture moves CAPTURING back to AUTHORIZED; a cancellation the connector reports ends a manual payment
 * CANCELLED, and an automatic one FAILED (its attempt was cancelled before it took money).
 */
final class OutcomeSteps {

    private OutcomeSteps() {
    }

    public static List<PaymentEvent> of(GatewayStatus outcome, PaymentStatus current, boolean manualCapture) {
        return switch (outcome) {
            case PROCESSING -> current == PaymentStatus.PENDING ? List.of(PaymentEvent.SUBMIT) : List.of();
            case AUTHORIZED -> switch (current) {
                case PENDING -> List.of(PaymentEvent.SUBMIT, PaymentEvent.AUTHORIZE);
                case PROCESSING -> List.of(PaymentEvent.AUTHORIZE);
                default -> List.of();
            };
            case SUCCEEDED -> switch (current) {
                case PENDING -> List.of(PaymentEvent.SUBMIT, PaymentEvent.SUCCEED);
                case PROCESSING -> List.of(PaymentEvent.SUCCEED);
                case AUTHORIZED -> List.of(PaymentEvent.CAPTURE, PaymentEvent.SUCCEED);
                case CAPTURING -> List.of(PaymentEvent.SUCCEED);
                default -> List.of();
            };
            case CAPTURE_FAILED -> current == PaymentStatus.CAPTURING ? List.of(PaymentEvent.CAPTURE_FAIL) : List.of();
            case CANCELLED -> switch (current) {
                case PENDING, PROCESSING -> List.of(manualCapture ? PaymentEvent.CANCEL : PaymentEvent.FAIL);
                case AUTHORIZED -> List.of(PaymentEvent.CANCEL);
                default -> List.of();
            };
            case FAILED -> current == PaymentStatus.PENDING || current == PaymentStatus.PROCESSING
                    ? List.of(PaymentEvent.FAIL) : List.of();
        };
    }
}
