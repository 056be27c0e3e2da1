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
 * Invariant 6: refunds never exceed amounts.
 *
 * <ul>
 *   <li>per payment, over its {@code refunds} with {@code counts_against_payment}: the sum of PENDING and SUCCEEDED
 *       amounts is at most the payment's {@code amount} and equals {@code payments.amount_reserved}; the sum of
 *       SUCCEEDED ones equals {@code amount_refunded}; such refunds exist only for COMPLETED payments;</li>
 *   <li>per orphaned attempt (refunds without {@code counts_against_payment}, by payment and attempt): PENDING and
 *       SUCCEEDED sum at most the payment's amount;</li>
 *   <li>per charge at every connector ({@link Charges}: PSP ledgers, {@code sandbox_refunds} by charge): the refunds
 *       that did not fail sum at most the charge's amount.</li>
 * </ul>
 * Offending keys: payment ids.
 */
final class RefundsWithinAmounts implements Invariant {

    @Override
    public String name() {
        return "refunds-within-amounts";
    }

    @Override
    public InvariantResult check(CheckContext context) {
        Snapshot db = context.db();
        Map<String, Snapshot.Payment> payments = db.paymentsById();
        Map<String, Long> reserved = new HashMap<>();
        Map<String, Long> refunded = new HashMap<>();
        Map<String, Long> orphanRefunds = new HashMap<>();
        Set<String> offending = new LinkedHashSet<>();
        List<String> problems = new ArrayList<>();
        for (Snapshot.Refund refund : db.refunds()) {
            boolean live = !refund.status().equals("FAILED");
            if (refund.countsAgainstPayment()) {
                if (live) {
                    reserved.merge(refund.paymentId(), refund.amount(), Long::sum);
                }
                if (refund.status().equals("SUCCEEDED")) {
                    refunded.merge(refund.paymentId(), refund.amount(), Long::sum);
                }
            } else if (live) {
                orphanRefunds.merge(refund.paymentId() + "#" + refund.attempt(), refund.amount(), Long::sum);
            }
        }
        for (Snapshot.Payment payment : db.payments()) {
            long r = reserved.getOrDefault(payment.id(), 0L);
            long s = refunded.getOrDefault(payment.id(), 0L);
            String problem = null;
            if (r > payment.amount()) {
                problem = "refunds pending or succeeded sum " + r + " > amount " + payment.amount();
            } else if (r != payment.amountReserved() || s != payment.amountRefunded()) {
                problem = "refunds sum " + r + " reserved / " + s + " succeeded, payment row says "
                        + payment.amountReserved() + " / " + payment.amountRefunded();
            } else if (r > 0 && !payment.status().equals("COMPLETED")) {
                problem = "refunded while " + payment.status();
            }
            if (problem != null) {
                problems.add("payment " + payment.id() + ": " + problem);
                offending.add(payment.id());
            }
        }
        orphanRefunds.forEach((attempt, sum) -> {
            String paymentId = attempt.substring(0, attempt.indexOf('#'));
            Snapshot.Payment payment = payments.get(paymentId);
            if (payment == null || sum > payment.amount()) {
                problems.add("orphaned attempt " + attempt + " refunds sum " + sum + " > amount");
                offending.add(paymentId);
            }
        });
        int charges = 0;
        for (Charge charge : context.charges().all()) {
            if (charge.refunds().isEmpty()) {
                continue;
            }
            charges++;
            if (charge.refundedOrPending() > charge.amount()) {
                problems.add(charge.connector() + " charge " + charge.reference() + " refunds sum "
                        + charge.refundedOrPending() + " > amount " + charge.amount());
                offending.add(charge.paymentId() != null ? charge.paymentId() : charge.reference());
            }
        }
        String detail = db.refunds().size() + " refunds over " + db.payments().size() + " payments, " + charges
                + " refunded charges at the connectors"
                + (problems.isEmpty() ? ": within amounts, payment rows agree"
                        : "; " + problems.size() + " problems, first: " + problems.get(0));
        return new InvariantResult(name(), problems.isEmpty(), detail, offending);
    }
}
