package com.payorch.chaos.check;

import com.payorch.testsupport.MoneyInvariant;
import com.payorch.testsupport.MoneyInvariant.Kind;
import java.util.Set;

/**
 * Invariant 6: refunds never exceed amounts, and what the service counts as refunded was given back.
 *
 * <p>The {@link MoneyInvariant} violations {@code OVER_REFUNDED} (per payment over its refunds that count against
 * it, PENDING and SUCCEEDED; per orphaned attempt; per charge at every connector over the refunds that did not
 * fail), {@code PAYMENT_ROW_DISAGREES} ({@code amount_reserved} / {@code amount_refunded} equal the sums of its
 * refund rows; refunded only while COMPLETED) and {@code REFUND_NOT_AT_CONNECTOR} (the SUCCEEDED refunds of a
 * charge sum at most what its connector gave back: a reversed refund is not counted). Offending keys: payment ids.
 */
final class RefundsWithinAmounts extends MoneyInvariantPart {

    RefundsWithinAmounts() {
        super(Set.of(Kind.OVER_REFUNDED, Kind.PAYMENT_ROW_DISAGREES, Kind.REFUND_NOT_AT_CONNECTOR));
    }

    @Override
    public String name() {
        return "refunds-within-amounts";
    }

    @Override
    String looked(CheckContext context) {
        long refunded = context.charges().all().stream().filter(c -> !c.refunds().isEmpty()).count();
        return context.db().refunds().size() + " refunds over " + context.db().payments().size() + " payments, "
                + refunded + " refunded charges at the connectors";
    }

    @Override
    String held() {
        return "within amounts, payment rows agree";
    }
}
