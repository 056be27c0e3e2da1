package com.payorch.connectors.stripe;

import com.payorch.gateway.CurrencyUnits;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * How Stripe writes amounts, from Stripe's "Supported currencies" page, https://docs.stripe.com/currencies
 * (sections "Zero-decimal currencies", "Three-decimal currencies", "Special cases"), and the ISK notice
 * https://support.stripe.com/questions/deprecation-of-fractional-isk-charges-and-refunds.
 * <ul>
 *   <li>Zero-decimal: BIF, CLP, DJF, GNF, JPY, KMF, KRW, MGA, PYG, RWF, UGX, VND, VUV, XAF, XOF, XPF. Of these only
 *       MGA differs from ISO 4217 (ISO: 2 decimals), so an MGA amount with fractions cannot be sent.</li>
 *   <li>ISK: effectively zero-decimal, but written with two decimals for backwards compatibility and "evenly
 *       divisible by 100" (ISO: 0 decimals), so ISK 5 is {@code 500} at Stripe.</li>
 *   <li>HUF and TWD: two decimals in charges as in ISO (whole units only for payouts, which this service does not
 *       make); listed so the table says it was considered.</li>
 *   <li>Three-decimal (BHD, JOD, KWD, OMR, TND): as ISO, but "the least-significant (last) digit" must be 0
 *       (the table's {@code multiples}, so create refuses such an amount).</li>
 *   <li>At most 8 digits in Stripe's units ("amount must be no more than 99,999,999", error {@code amount_too_large}).</li>
 * </ul>
 */
public final class StripeCurrencies {

    static final String SOURCE = "Stripe's supported currencies, https://docs.stripe.com/currencies";

    static final Set<String> ZERO_DECIMAL = Set.of("BIF", "CLP", "DJF", "GNF", "JPY", "KMF", "KRW", "MGA", "PYG",
            "RWF", "UGX", "VND", "VUV", "XAF", "XOF", "XPF");

    static final Set<String> THREE_DECIMAL = Set.of("BHD", "JOD", "KWD", "OMR", "TND");

    public static final int MAX_DIGITS = 8;

    public static final CurrencyUnits UNITS = new CurrencyUnits(exponents(), MAX_DIGITS, SOURCE, multiples());

    private StripeCurrencies() {
    }

    private static Map<String, Integer> exponents() {
        Map<String, Integer> exponents = new HashMap<>();
        ZERO_DECIMAL.forEach(code -> exponents.put(code, 0));
        exponents.put("ISK", 2);
        exponents.put("HUF", 2);
        exponents.put("TWD", 2);
        THREE_DECIMAL.forEach(code -> exponents.put(code, 3));
        return exponents;
    }

    /** Three-decimal amounts must end in 0 (refused by Stripe's payment partners otherwise). */
    private static Map<String, Long> multiples() {
        Map<String, Long> multiples = new HashMap<>();
        THREE_DECIMAL.forEach(code -> multiples.put(code, 10L));
        return multiples;
    }

    /** Whether Stripe accepts this amount, already in its units (the table's step, checked once more). */
    static boolean expressible(long stripeAmount, String currency) {
        return !THREE_DECIMAL.contains(currency.toUpperCase(Locale.ROOT)) || stripeAmount % 10 == 0;
    }
}
