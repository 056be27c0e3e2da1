package com.payorch.payments;

import com.payorch.gateway.GatewayOutcome;
import com.payorch.gateway.GatewayStatus;
import com.payorch.statemachine.PaymentStatus;

/**
 * What a connector's word means for a payment's customer action, before {@link OutcomeSteps} maps it to steps:
 * <ul>
 *   <li>the connector waits for a customer who cannot act (the merchant gave no `returnUrl`, or the connector named
 *       no page): nothing was taken, the payment FAILS {@code authentication_required} (v2's answer);</li>
 *   <li>a cancellation of a payment waiting for its customer that the expiry asked for FAILS it
 *       {@code authentication_expired}, only now that the connector confirmed it (the PSP's word).</li>
 * </ul>
 */
final class CustomerActionOutcomes {

    private CustomerActionOutcomes() {
    }

    static GatewayOutcome asApplied(Payment current, GatewayOutcome outcome) {
        if (outcome.status() == GatewayStatus.REQUIRES_ACTION
                && (!current.action().customerCanAct() || outcome.nextActionUrl() == null)) {
            return new GatewayOutcome(outcome.paymentId(), outcome.attempt(), outcome.connector(),
                    outcome.reference(), GatewayStatus.FAILED, CustomerAction.AUTHENTICATION_REQUIRED);
        }
        if (outcome.status() == GatewayStatus.CANCELLED && current.status() == PaymentStatus.REQUIRES_ACTION
                && current.actionExpired()) {
            return new GatewayOutcome(outcome.paymentId(), outcome.attempt(), outcome.connector(),
                    outcome.reference(), GatewayStatus.CANCELLED, CustomerAction.AUTHENTICATION_EXPIRED);
        }
        return outcome;
    }

    /** The payment with the connector's page recorded, when the outcome asks for the customer. */
    static Payment asking(Payment current, GatewayOutcome outcome) {
        return outcome.status() == GatewayStatus.REQUIRES_ACTION && outcome.nextActionUrl() != null
                ? current.withAction(current.action().asking(outcome.nextActionUrl())) : current;
    }
}
