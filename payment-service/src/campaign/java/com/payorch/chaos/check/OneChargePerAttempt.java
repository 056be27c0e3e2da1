package com.payorch.chaos.check;

import com.payorch.testsupport.MoneyInvariant;
import com.payorch.testsupport.MoneyInvariant.Kind;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Invariant 3: at most one charge per attempt across all connectors, and it is at the attempt's connector; every
 * COMPLETED payment's current attempt holds a charge that took money.
 *
 * <p>The {@link MoneyInvariant} violations {@code CHARGE_WITHOUT_ATTEMPT}, {@code CHARGE_AT_ANOTHER_CONNECTOR},
 * {@code TWO_CHARGES_FOR_ONE_ATTEMPT} and {@code PAYMENT_WITHOUT_ITS_CHARGE}, over the sandbox's
 * {@code sandbox_charges} and the PSP fakes' ledgers ({@link Charges}; a declined charge is no charge). Offending
 * keys: payment ids (or the charge's reference when it names no payment).
 */
final class OneChargePerAttempt extends MoneyInvariantPart {

    OneChargePerAttempt() {
        super(Set.of(Kind.CHARGE_WITHOUT_ATTEMPT, Kind.CHARGE_AT_ANOTHER_CONNECTOR, Kind.TWO_CHARGES_FOR_ONE_ATTEMPT,
                Kind.PAYMENT_WITHOUT_ITS_CHARGE));
    }

    @Override
    public String name() {
        return "one-charge-per-attempt";
    }

    @Override
    String looked(CheckContext context) {
        Map<String, Long> byConnector = context.charges().all().stream()
                .collect(Collectors.groupingBy(Charges.Charge::connector, TreeMap::new, Collectors.counting()));
        long attempts = context.charges().all().stream().filter(c -> c.paymentId() != null && c.attempt() != null)
                .map(c -> c.paymentId() + "#" + c.attempt()).distinct().count();
        long completed = context.db().payments().stream().filter(p -> p.status().equals("COMPLETED")).count();
        return context.charges().all().size() + " charges " + byConnector + " over " + attempts + " attempts, "
                + completed + " COMPLETED payments";
    }

    @Override
    String held() {
        return "one charge each, at the attempt's connector";
    }
}
