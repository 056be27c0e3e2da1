package com.payorch.connectors.braintree;

import com.payorch.gateway.CurrencyUnits;
import java.math.BigDecimal;
import java.util.Map;

/**
 * Braintree takes and reports amounts as decimal strings in the currency's major unit (`12.34` EUR, `12000` JPY);
 * the port counts ISO 4217 minor units. The exponent only decides where the decimal point goes, and Braintree writes
 * each currency with its ISO 4217 decimals (Braintree's "Currencies" reference,
 * developer.paypal.com/braintree/docs/reference/general/currencies), so the table has no exceptions and no digit
 * limit of its own: an amount Braintree would not take comes back as its validation error (a refusal).
 */
final class BraintreeAmounts {

    static final CurrencyUnits UNITS = new CurrencyUnits(Map.of(), 0,
            "Braintree: decimal amounts with ISO 4217 decimals (developer.paypal.com/braintree/docs/reference/general/"
                    + "currencies)");

    private BraintreeAmounts() {
    }

    static BigDecimal decimal(long minorUnits, String currency) {
        return BigDecimal.valueOf(minorUnits, UNITS.exponent(currency));
    }

    /** @throws ArithmeticException when the amount has more decimals than the currency */
    static long minorUnits(BigDecimal amount, String currency) {
        return amount.setScale(UNITS.exponent(currency)).unscaledValue().longValueExact();
    }
}
