package com.payorch.chaos.check;

import com.payorch.chaos.check.Checker.InvariantResult;
import com.payorch.testsupport.MoneyInvariant;
import com.payorch.testsupport.MoneyInvariant.Kind;
import com.payorch.testsupport.MoneyInvariant.Violation;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One part of the money invariant as a campaign invariant: the {@link MoneyInvariant} violations of its kinds (the
 * money invariant is defined once, in test support, for the integration tests and the campaign alike). Offending
 * keys: the violations' payment ids, or the charge's reference when it names no payment.
 */
abstract class MoneyInvariantPart implements Invariant {

    private final Set<Kind> kinds;

    MoneyInvariantPart(Set<Kind> kinds) {
        this.kinds = Set.copyOf(kinds);
    }

    /** What was looked at, for the detail line (e.g. how many charges by connector). */
    abstract String looked(CheckContext context);

    /** The detail's ending when nothing is violated. */
    abstract String held();

    @Override
    public InvariantResult check(CheckContext context) {
        List<Violation> violations = context.money().stream().filter(v -> kinds.contains(v.kind())).toList();
        Set<String> offending = new LinkedHashSet<>();
        violations.forEach(v -> offending.add(v.paymentId() != null ? v.paymentId() : v.reference()));
        String detail = looked(context) + (violations.isEmpty() ? ": " + held()
                : "; " + violations.size() + " problems, first: " + violations.get(0));
        return new InvariantResult(name(), violations.isEmpty(), detail, offending);
    }
}
