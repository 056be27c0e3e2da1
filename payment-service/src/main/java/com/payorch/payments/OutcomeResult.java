package com.payorch.payments;

import java.util.List;

/**
 * What applying a gateway outcome did.
 *
 * @param changes the transitions it made, in order (none unless {@link Kind#APPLIED})
 */
public record OutcomeResult(Kind kind, Payment payment, List<PaymentChange> changes) {

    public enum Kind {
        /** The outcome was about the current attempt and moved the payment. */
        APPLIED,
        /** Late, out of order, about a superseded attempt, or contradicting a terminal state: nothing changed. */
        IGNORED,
        /** A superseded attempt took the money: an orphaned charge, reported by a {@code charge.orphaned} event. */
        ORPHANED
    }

    public OutcomeResult {
        changes = List.copyOf(changes);
    }
}
