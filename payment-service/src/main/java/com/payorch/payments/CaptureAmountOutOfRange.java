package com.payorch.payments;

import com.payorch.support.Refusal;

/** A capture of more than the hold's capturable amount: refused before anything is stored or sent. */
public class CaptureAmountOutOfRange extends Refusal {

    public CaptureAmountOutOfRange(String paymentId, long amount, long capturable, String currency) {
        super("invalid_request", "Field 'amount' " + amount + " " + currency + " exceeds what payment " + paymentId
                + " can capture (" + capturable + " " + currency + ").");
    }
}
