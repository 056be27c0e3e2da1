package com.payorch.chaos.check;

import com.payorch.chaos.check.Charges.Charge;
import com.payorch.chaos.check.Checker.InvariantResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Invariant 7: every orphaned charge is refunded exactly once.
 *
 * <p>A charge that took money ({@link Charges}: sandbox {@code succeeded}, PSP ledger {@code succeeded}) is the
 * payment's own when the payment is COMPLETED, the charge is for its current attempt ({@code payments.attempt}) at
 * its {@code connector}, and, when the attempt's {@code reference} is recorded, it is that charge. Every other
 * charge that took money is orphaned (the service's rule, docs/architecture.md "Orphaned charges": a superseded
 * attempt that succeeded; a charge for a payment that ended FAILED is money taken for nothing as well). An orphaned
 * charge must have exactly one refund at its connector that did not fail, for the charge's whole amount. On the
 * service's side, every automatic refund ({@code refunds.counts_against_payment = false}) must be SUCCEEDED, for an
 * attempt marked orphaned ({@code payment_attempts.orphaned_at}), one per attempt. Offending keys: payment ids.
 */
final class OrphanedChargesRefunded implements Invariant {

    @Override
    public String name() {
        return "orphaned-charges-refunded-once";
    }

    @Override
    public InvariantResult check(CheckContext context) {
        Snapshot db = context.db();
        Map<String, Snapshot.Payment> payments = db.paymentsById();
        Map<String, Snapshot.Attempt> attempts = new HashMap<>();
        db.attempts().forEach(a -> attempts.put(a.paymentId() + "#" + a.number(), a));
        Set<String> offending = new LinkedHashSet<>();
        List<String> problems = new ArrayList<>();
        int tookMoney = 0;
        int orphaned = 0;
        for (Charge charge : context.charges().all()) {
            if (!charge.tookMoney()) {
                continue;
            }
            tookMoney++;
            Snapshot.Payment payment = charge.paymentId() == null ? null : payments.get(charge.paymentId());
            Snapshot.Attempt attempt = charge.attempt() == null ? null
                    : attempts.get(charge.paymentId() + "#" + charge.attempt());
            boolean own = payment != null && payment.status().equals("COMPLETED")
                    && charge.attempt() != null && charge.attempt() == payment.attempt()
                    && charge.connector().equals(payment.connector())
                    && (attempt == null || attempt.reference() == null
                            || attempt.reference().equals(charge.reference()));
            if (own) {
                continue;
            }
            orphaned++;
            long live = charge.liveRefunds();
            if (live != 1 || charge.refundedOrPending() != charge.amount()) {
                problems.add("orphaned " + charge.connector() + " charge " + charge.reference() + " of "
                        + charge.paymentId() + " attempt " + charge.attempt() + " (payment "
                        + (payment == null ? "unknown" : payment.status()) + ") has " + live + " refunds for "
                        + charge.refundedOrPending() + " of " + charge.amount());
                offending.add(charge.paymentId() != null ? charge.paymentId() : charge.reference());
            }
        }
        Map<String, Integer> automatic = new HashMap<>();
        for (Snapshot.Refund refund : db.refunds()) {
            if (refund.countsAgainstPayment()) {
                continue;
            }
            String key = refund.paymentId() + "#" + refund.attempt();
            automatic.merge(key, 1, Integer::sum);
            Snapshot.Attempt attempt = attempts.get(key);
            if (attempt == null || !attempt.orphaned() || !refund.status().equals("SUCCEEDED")) {
                problems.add("automatic refund " + refund.id() + " of attempt " + key + " is " + refund.status()
                        + (attempt != null && attempt.orphaned() ? "" : ", for an attempt not marked orphaned"));
                offending.add(refund.paymentId());
            }
        }
        automatic.forEach((key, n) -> {
            if (n > 1) {
                problems.add("attempt " + key + " has " + n + " automatic refunds");
                offending.add(key.substring(0, key.indexOf('#')));
            }
        });
        for (Snapshot.Attempt attempt : db.attempts()) {
            if (attempt.orphaned() && automatic.getOrDefault(attempt.paymentId() + "#" + attempt.number(), 0) != 1) {
                problems.add("attempt " + attempt.paymentId() + "#" + attempt.number()
                        + " is marked orphaned but has no automatic refund");
                offending.add(attempt.paymentId());
            }
        }
        String detail = tookMoney + " charges took money, " + orphaned + " orphaned, " + automatic.size()
                + " automatic refunds" + (problems.isEmpty() ? ": every orphaned charge refunded once"
                        : "; " + problems.size() + " problems, first: " + problems.get(0));
        return new InvariantResult(name(), problems.isEmpty(), detail, offending);
    }
}
