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
 * <p>Customer action: a connector that waits for the customer moves a PENDING or PROCESSING payment to
 * REQUIRES_ACTION; from there its word moves it on (PROCESSING, AUTHORIZED, COMPLETED, FAILED) like from PROCESSING.
 * A cancellation of a payment waiting for its customer FAILS it when the expiry asked for it (the customer did not
 * act in time), and otherwise ends a manual payment CANCELLED (the merchant released it) and FAILS an automatic one.
 */
final class OutcomeSteps {

    private OutcomeSteps() {
    }

    public static List<PaymentEvent> of(GatewayStatus outcome, PaymentStatus current, boolean manualCapture) {
        return of(outcome, current, manualCapture, false);
    }

    /** @param actionExpired the expiry of the customer's action asked for the attempt's cancel */
    public static List<PaymentEvent> of(GatewayStatus outcome, PaymentStatus current, boolean manualCapture,
                                        boolean actionExpired) {
        return switch (outcome) {
            case PROCESSING -> current == PaymentStatus.PENDING || current == PaymentStatus.REQUIRES_ACTION
                    ? List.of(PaymentEvent.SUBMIT) : List.of();
            case REQUIRES_ACTION -> current == PaymentStatus.PENDING || current == PaymentStatus.PROCESSING
                    ? List.of(PaymentEvent.REQUIRE_ACTION) : List.of();
            case AUTHORIZED -> switch (current) {
                case PENDING -> List.of(PaymentEvent.SUBMIT, PaymentEvent.AUTHORIZE);
                case PROCESSING, REQUIRES_ACTION -> List.of(PaymentEvent.AUTHORIZE);
                default -> List.of();
            };
            case SUCCEEDED -> switch (current) {
                case PENDING -> List.of(PaymentEvent.SUBMIT, PaymentEvent.SUCCEED);
                case PROCESSING, REQUIRES_ACTION -> List.of(PaymentEvent.SUCCEED);
                case AUTHORIZED -> List.of(PaymentEvent.CAPTURE, PaymentEvent.SUCCEED);
                case CAPTURING -> List.of(PaymentEvent.SUCCEED);
                default -> List.of();
            };
            case CAPTURE_FAILED -> current == PaymentStatus.CAPTURING ? List.of(PaymentEvent.CAPTURE_FAIL) : List.of();
            case CANCELLED -> switch (current) {
                case PENDING, PROCESSING -> List.of(manualCapture ? PaymentEvent.CANCEL : PaymentEvent.FAIL);
                case REQUIRES_ACTION -> List.of(manualCapture && !actionExpired ? PaymentEvent.CANCEL
                        : PaymentEvent.FAIL);
                case AUTHORIZED -> List.of(PaymentEvent.CANCEL);
                default -> List.of();
            };
            case FAILED -> current == PaymentStatus.PENDING || current == PaymentStatus.PROCESSING
                    || current == PaymentStatus.REQUIRES_ACTION ? List.of(PaymentEvent.FAIL) : List.of();
        };
    }
}
