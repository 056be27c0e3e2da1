package com.payorch.payments;

import com.payorch.support.Refusal;

/**
 * The payment's first connector cannot charge the amount as asked: its currency table writes the currency with fewer
 * decimals than ISO 4217 and the amount is not a whole number of them, or the amount exceeds the connector's maximum.
 * Refused before anything is stored or sent.
 */
public class AmountNotExpressible extends Refusal {

    public AmountNotExpressible(long amount, String currency, String connector, String source) {
        super("invalid_request", "Field 'amount' " + amount + " " + currency + " cannot be charged exactly through "
                + "connector " + connector + " (its currency units: " + source + ").");
    }
}
