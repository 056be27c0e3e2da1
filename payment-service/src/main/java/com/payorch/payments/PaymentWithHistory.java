package com.payorch.payments;

import java.util.ArrayList;
import java.util.List;

/** A payment with its whole history, oldest transition first, as the API shows it. */
public record PaymentWithHistory(Payment payment, List<PaymentTransition> history) {

    public PaymentWithHistory {
        history = List.copyOf(history);
    }

    /** The same payment after `change`, without reading the history again. */
    public PaymentWithHistory after(PaymentChange change) {
        List<PaymentTransition> longer = new ArrayList<>(history);
        longer.add(change.transition());
        return new PaymentWithHistory(change.payment(), longer);
    }
}
