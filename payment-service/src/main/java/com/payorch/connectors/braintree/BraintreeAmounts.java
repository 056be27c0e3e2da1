package com.payorch.connectors.braintree;

import java.math.BigDecimal;
import java.util.Currency;
import java.util.Locale;

/** Braintree takes and reports decimal amounts in the currency's unit; the port counts minor units (ISO 4217). */
final class BraintreeAmounts {

    private BraintreeAmounts() {
    }

    static BigDecimal decimal(long minorUnits, String currency) {
        return BigDecimal.valueOf(minorUnits, digits(currency));
    }

    /** @throws ArithmeticException when the amount has more decimals than the currency */
    static long minorUnits(BigDecimal amount, String currency) {
        return amount.setScale(digits(currency)).unscaledValue().longValueExact();
    }

    private static int digits(String currency) {
        return Math.max(0, Currency.getInstance(currency.toUpperCase(Locale.ROOT)).getDefaultFractionDigits());
    }
}
