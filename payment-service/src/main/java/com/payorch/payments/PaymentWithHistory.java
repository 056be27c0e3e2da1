package com.payorch.payments;

import java.util.ArrayList;
import java.util.List;

/** A payment with its whole history (oldest transition first) and its attempts (first first), as the API shows it. */
public record PaymentWithHistory(Payment payment, List<PaymentTransition> history, List<Attempt> attempts) {

    public PaymentWithHistory {
        history = List.copyOf(history);
        attempts = List.copyOf(attempts);
    }

    /** The current attempt. */
    public Attempt currentAttempt() {
        return attempts.stream().filter(a -> a.number() == payment.attempt()).findFirst()
                .orElseThrow(() -> new IllegalStateException("payment " + payment.id() + " has no attempt "
                        + payment.attempt()));
    }

    /** The same payment after `change`, without reading it again. */
    public PaymentWithHistory after(PaymentChange change) {
        List<PaymentTransition> longer = new ArrayList<>(history);
        longer.add(change.transition());
        List<Attempt> updated = new ArrayList<>(attempts.stream()
                .filter(a -> a.number() != change.attempt().number()).toList());
        updated.add(change.attempt());
        updated.sort(java.util.Comparator.comparingInt(Attempt::number));
        return new PaymentWithHistory(change.payment(), longer, updated);
    }

    public PaymentWithHistory after(List<PaymentChange> changes) {
        PaymentWithHistory result = this;
        for (PaymentChange change : changes) {
            result = result.after(change);
        }
        return result;
    }
}
