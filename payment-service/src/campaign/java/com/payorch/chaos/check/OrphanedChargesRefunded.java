package com.payorch.chaos.check;

import com.payorch.testsupport.MoneyInvariant;
import com.payorch.testsupport.MoneyInvariant.Kind;
import java.util.Set;

/**
 * Invariant 7: every charge that took money and backs no payment is given back exactly once (contract v3: a late
 * success for a FAILED payment included).
 *
 * <p>The {@link MoneyInvariant} violations {@code ORPHAN_NOT_GIVEN_BACK_ONCE} (a charge that took money backs its
 * payment only when the payment is COMPLETED on that attempt at that connector, and is the attempt's recorded
 * reference; any other must have exactly one refund at its connector for its whole amount that did not fail, and
 * exactly one {@code orphaned_charge} refund row, SUCCEEDED once the world has settled) and
 * {@code ORPHAN_REFUND_ROWS} (automatic refunds only for attempts marked orphaned, one each, every orphaned attempt
 * has one). Offending keys: payment ids.
 */
final class OrphanedChargesRefunded extends MoneyInvariantPart {

    OrphanedChargesRefunded() {
        super(Set.of(Kind.ORPHAN_NOT_GIVEN_BACK_ONCE, Kind.ORPHAN_REFUND_ROWS));
    }

    @Override
    public String name() {
        return "orphaned-charges-refunded-once";
    }

    @Override
    String looked(CheckContext context) {
        var charges = context.charges().forMoneyInvariant();
        long tookMoney = charges.stream().filter(c -> c.status() == MoneyInvariant.ChargeStatus.TOOK_MONEY).count();
        long automatic = context.db().refunds().stream().filter(r -> !r.countsAgainstPayment()).count();
        return tookMoney + " charges took money, " + MoneyInvariant.unbacked(charges, context.db().books()).size()
                + " orphaned, " + automatic + " automatic refunds";
    }

    @Override
    String held() {
        return "every orphaned charge refunded once";
    }
}
