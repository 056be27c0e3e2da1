package com.payorch.console.api;

import com.payorch.console.PaymentDossier;
import com.payorch.console.diagram.LifecycleDiagram;
import com.payorch.console.diagram.TakenStep;
import java.util.List;

/**
 * The payment page's life-cycle diagram: the payment life cycle drawn from the state machine module's transitions
 * ({@link LifecycleDiagram}), with the payment's status as the current state and its recorded transitions as the
 * path taken.
 */
final class PaymentPageDiagram {

    private static final LifecycleDiagram PAYMENTS = LifecycleDiagram.ofPayments();

    private PaymentPageDiagram() {
    }

    static String svg(PaymentDossier dossier) {
        List<TakenStep> path = dossier.payment().history().stream()
                .map(step -> new TakenStep(step.from() == null ? null : step.from().name(), step.to().name()))
                .toList();
        return PAYMENTS.svg(dossier.payment().payment().status().name(), path);
    }
}
