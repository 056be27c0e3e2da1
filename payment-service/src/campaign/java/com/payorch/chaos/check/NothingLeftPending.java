package com.payorch.chaos.check;

import com.payorch.chaos.check.Checker.InvariantResult;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Invariant 4: no payment is left PENDING, PROCESSING or REQUIRES_ACTION once the campaign waited for the recovery
 * horizon (a payment waiting for its customer is settled by the expiry job at the latest; the campaign's wait is at
 * least {@code payments.customer-action.expires-after}).
 *
 * <p>{@code payments.status} of every payment; offending keys: the payment ids still PENDING, PROCESSING or REQUIRES_ACTION. Refunds
 * still PENDING are counted in the detail for information (an Adyen refund whose notification never came stays
 * PENDING by design) and do not fail this invariant; an orphaned charge's refund that never completed fails
 * invariant 7.
 */
final class NothingLeftPending implements Invariant {

    @Override
    public String name() {
        return "no-payment-left-pending";
    }

    @Override
    public InvariantResult check(CheckContext context) {
        Set<String> offending = new LinkedHashSet<>();
        long pending = 0;
        long processing = 0;
        long holdsInFlight = 0;
        long awaitingCustomer = 0;
        for (Snapshot.Payment payment : context.db().payments()) {
            if (payment.status().equals("PENDING")) {
                pending++;
                offending.add(payment.id());
            } else if (payment.status().equals("PROCESSING")) {
                processing++;
                offending.add(payment.id());
            } else if (payment.status().equals("REQUIRES_ACTION")) {
                awaitingCustomer++;
                offending.add(payment.id());
            } else if (payment.status().equals("CAPTURING")
                    || payment.cancelRequested() && payment.status().equals("AUTHORIZED")) {
                // A capture sent or a release recorded must have settled once the world has (an open hold need not).
                holdsInFlight++;
                offending.add(payment.id());
            }
        }
        long refundsPending = context.db().refunds().stream().filter(r -> r.status().equals("PENDING")).count();
        String detail = context.db().payments().size() + " payments, " + pending + " PENDING, " + processing
                + " PROCESSING, " + awaitingCustomer + " REQUIRES_ACTION, " + holdsInFlight + " captures or releases in flight" + (offending.isEmpty() ? "" : " (first " + offending.iterator().next() + ")")
                + "; refunds still PENDING (not counted): " + refundsPending;
        return new InvariantResult(name(), offending.isEmpty(), detail, offending);
    }
}
