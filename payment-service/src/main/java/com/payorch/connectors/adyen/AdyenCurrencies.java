package com.payorch.connectors.adyen;

import com.payorch.gateway.CurrencyUnits;
import java.util.Map;

/**
 * How Adyen writes amounts: minor units with Adyen's own number of decimals. Source: Adyen, "Currency codes and minor
 * units" (https://docs.adyen.com/development-resources/currency-codes): "For CLP, CVE, IDR, and ISK the standard has a
 * different number of decimals than shown in our currency codes table … the decimals in the table on this page are
 * leading." Every other currency in that table has its ISO 4217 exponent, so only these four are overrides.
 * <ul>
 *   <li>CLP (Chilean peso): 2 at Adyen, 0 in ISO 4217: CLP 5000 is sent as 500000.</li>
 *   <li>ISK (Iceland krona): 2 at Adyen, 0 in ISO 4217.</li>
 *   <li>CVE (Cape Verde escudo): 0 at Adyen, 2 in ISO 4217: only whole escudos (CVE 12345 cannot be sent).</li>
 *   <li>IDR (Indonesian rupiah): 0 at Adyen, 2 in ISO 4217: only whole rupiahs.</li>
 * </ul>
 * Adyen's `amount.value` is an int64 with no digit limit of its own in the Checkout API (CheckoutService-v71.json,
 * components.schemas.Amount), so no maximum beyond the long.
 */
public final class AdyenCurrencies {

    public static final String SOURCE = "Adyen \"Currency codes and minor units\""
            + " (https://docs.adyen.com/development-resources/currency-codes)";

    public static final CurrencyUnits UNITS = new CurrencyUnits(
            Map.of("CLP", 2, "ISK", 2, "CVE", 0, "IDR", 0), 0, SOURCE);

    private AdyenCurrencies() {
    }
}
