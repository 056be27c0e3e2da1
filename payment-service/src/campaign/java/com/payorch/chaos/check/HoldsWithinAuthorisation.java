package com.payorch.chaos.check;

import com.payorch.testsupport.MoneyInvariant;
import com.payorch.testsupport.MoneyInvariant.Kind;
import java.util.Set;

/**
 * Invariant 11 (holds, issue 23): captured <= authorised, in every payment row and at every connector; one capture
 * and at most one release per payment at the connector (a capture resent after a lost answer is the same capture,
 * under the key that names its number); a capture racing a cancel has one winner (never captured and released both);
 * a COMPLETED hold's {@code amount_captured} is what its connector captured. The {@link MoneyInvariant} violations
 * {@code CAPTURED_ABOVE_AUTHORISED}, {@code CAPTURED_TWICE}, {@code RELEASED_TWICE}, {@code CAPTURE_DISAGREES}.
 * Offending keys: payment ids.
 */
final class HoldsWithinAuthorisation extends MoneyInvariantPart {

    HoldsWithinAuthorisation() {
        super(Set.of(Kind.CAPTURED_ABOVE_AUTHORISED, Kind.CAPTURED_TWICE, Kind.RELEASED_TWICE,
                Kind.CAPTURE_DISAGREES));
    }

    @Override
    public String name() {
        return "holds-captured-within-authorised-once";
    }

    @Override
    String looked(CheckContext context) {
        var charges = context.charges().forMoneyInvariant();
        long holds = charges.stream().filter(c -> c.hold() != null).count();
        long captured = charges.stream().filter(c -> c.hold() != null && c.hold().captured() > 0).count();
        long released = charges.stream().filter(c -> c.hold() != null && c.hold().releases() > 0).count();
        long manual = context.db().payments().stream().filter(Snapshot.Payment::manual).count();
        return manual + " manual payments; " + holds + " holds at the connectors, " + captured + " captured, "
                + released + " released";
    }

    @Override
    String held() {
        return "captured <= authorised, one capture and at most one release each, one winner";
    }
}
