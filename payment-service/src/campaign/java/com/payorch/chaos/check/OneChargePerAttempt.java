package com.payorch.chaos.check;

import com.payorch.chaos.check.Charges.Charge;
import com.payorch.chaos.check.Checker.InvariantResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Invariant 3: at most one charge per attempt across all connectors, and it is at the attempt's connector.
 *
 * <p>The charges are the sandbox's {@code sandbox_charges} rows and the PSP fakes' ledgers ({@link Charges}: a
 * PSP charge is any PaymentIntent / Adyen payment the ledger lists, whatever its outcome). Grouped by (payment,
 * attempt), each group must hold at most one charge; every charge must name a payment and an attempt that
 * {@code payment_attempts} holds, and be at that attempt's recorded {@code connector} (a charge elsewhere is money
 * the service does not know about). Every COMPLETED payment's current attempt must have exactly one charge that took
 * money. Offending keys: payment ids (or the charge's reference when it names no known payment).
 */
final class OneChargePerAttempt implements Invariant {

    @Override
    public String name() {
        return "one-charge-per-attempt";
    }

    @Override
    public InvariantResult check(CheckContext context) {
        Snapshot db = context.db();
        Map<String, Snapshot.Attempt> attempts = new HashMap<>();
        db.attempts().forEach(a -> attempts.put(a.paymentId() + "#" + a.number(), a));
        Set<String> offending = new LinkedHashSet<>();
        List<String> problems = new ArrayList<>();
        Map<String, List<Charge>> byAttempt = new LinkedHashMap<>();
        Map<String, Integer> byConnector = new TreeMap<>();
        for (Charge charge : context.charges().all()) {
            byConnector.merge(charge.connector(), 1, Integer::sum);
            if (charge.paymentId() == null || charge.attempt() == null) {
                problems.add(charge.connector() + " charge " + charge.reference() + " names no payment attempt");
                offending.add(charge.paymentId() != null ? charge.paymentId() : charge.reference());
                continue;
            }
            String key = charge.paymentId() + "#" + charge.attempt();
            byAttempt.computeIfAbsent(key, k -> new ArrayList<>()).add(charge);
            Snapshot.Attempt attempt = attempts.get(key);
            if (attempt == null) {
                problems.add(charge.connector() + " charge " + charge.reference() + " is for attempt " + key
                        + ", which the service does not hold");
                offending.add(charge.paymentId());
            } else if (!attempt.connector().equals(charge.connector())) {
                problems.add(charge.connector() + " charge " + charge.reference() + " for attempt " + key
                        + " recorded at " + attempt.connector());
                offending.add(charge.paymentId());
            }
        }
        byAttempt.forEach((key, charges) -> {
            if (charges.size() > 1) {
                problems.add("attempt " + key + " has " + charges.size() + " charges "
                        + charges.stream().map(c -> c.connector() + ":" + c.reference()).toList());
                offending.add(charges.get(0).paymentId());
            }
        });
        int completed = 0;
        for (Snapshot.Payment payment : db.payments()) {
            if (!payment.status().equals("COMPLETED")) {
                continue;
            }
            completed++;
            List<Charge> charges = byAttempt.getOrDefault(payment.id() + "#" + payment.attempt(), List.of());
            if (charges.stream().filter(Charge::tookMoney).count() != 1) {
                problems.add("COMPLETED payment " + payment.id() + " attempt " + payment.attempt() + " at "
                        + payment.connector() + " has " + charges.stream().filter(Charge::tookMoney).count()
                        + " charges that took money");
                offending.add(payment.id());
            }
        }
        String detail = context.charges().all().size() + " charges " + byConnector + " over " + byAttempt.size()
                + " attempts, " + completed + " COMPLETED payments"
                + (problems.isEmpty() ? ": one charge each, at the attempt's connector"
                        : "; " + problems.size() + " problems, first: " + problems.get(0));
        return new InvariantResult(name(), problems.isEmpty(), detail, offending);
    }
}
