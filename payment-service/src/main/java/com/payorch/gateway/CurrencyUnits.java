package com.payorch.gateway;

import java.util.Currency;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;

/**
 * How a connector writes amounts. The API's amounts are in ISO 4217 minor units; a connector may use other exponents
 * for some currencies (Adyen: CLP and ISK with 2 decimals, CVE with 0; Stripe: ISK, HUF, TWD and UGX as special
 * cases) and may cap amounts (Stripe: 8 digits). Each connector publishes its table, taken from its PSP's
 * documentation, and converts in both directions: before a submit or a refund, and back before a notification's
 * amount is compared with the payment.
 *
 * @param exponents  the connector's exponent where it differs from ISO 4217 (upper-case currency codes)
 * @param maxDigits  the most digits an amount may have in the connector's units (0: no limit)
 * @param source     where the table comes from (the PSP's page), shown in refusals and docs
 * @param multiples  where an amount in the connector's units must be a multiple of a step (Stripe: the last digit of
 *                   a three-decimal currency must be 0)
 */
public record CurrencyUnits(Map<String, Integer> exponents, int maxDigits, String source,
                            Map<String, Long> multiples) {

    /** ISO 4217 exponents, no limit: what the sandbox and connectors without a table use. */
    public static final CurrencyUnits ISO = new CurrencyUnits(Map.of(), 0, "ISO 4217");

    public CurrencyUnits {
        exponents = Map.copyOf(exponents);
        multiples = Map.copyOf(multiples);
    }

    public CurrencyUnits(Map<String, Integer> exponents, int maxDigits, String source) {
        this(exponents, maxDigits, source, Map.of());
    }

    /** The ISO 4217 exponent (2 for a currency Java does not know, as the API treats it). */
    public static int isoExponent(String currency) {
        try {
            int digits = Currency.getInstance(currency.toUpperCase(Locale.ROOT)).getDefaultFractionDigits();
            return digits < 0 ? 0 : digits;
        } catch (IllegalArgumentException unknown) {
            return 2;
        }
    }

    public int exponent(String currency) {
        return exponents.getOrDefault(currency.toUpperCase(Locale.ROOT), isoExponent(currency));
    }

    /**
     * The amount in the connector's units; empty when the connector cannot express it exactly (CVE 12345 at Adyen:
     * 123.45 in a currency it writes without decimals) or it exceeds the connector's maximum.
     */
    public OptionalLong toConnector(long isoAmount, String currency) {
        int shift = exponent(currency) - isoExponent(currency);
        long converted;
        if (shift >= 0) {
            try {
                converted = Math.multiplyExact(isoAmount, pow10(shift));
            } catch (ArithmeticException overflow) {
                return OptionalLong.empty();
            }
        } else {
            long divisor = pow10(-shift);
            if (isoAmount % divisor != 0) {
                return OptionalLong.empty();
            }
            converted = isoAmount / divisor;
        }
        if (maxDigits > 0 && Long.toString(Math.abs(converted)).length() > maxDigits) {
            return OptionalLong.empty();
        }
        Long step = multiples.get(currency.toUpperCase(Locale.ROOT));
        if (step != null && converted % step != 0) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(converted);
    }

    /** A connector's amount back in ISO minor units (empty when it has no exact ISO form). */
    public OptionalLong toIso(long connectorAmount, String currency) {
        int shift = isoExponent(currency) - exponent(currency);
        if (shift >= 0) {
            return OptionalLong.of(connectorAmount * pow10(shift));
        }
        long divisor = pow10(-shift);
        return connectorAmount % divisor == 0 ? OptionalLong.of(connectorAmount / divisor) : OptionalLong.empty();
    }

    private static long pow10(int n) {
        long result = 1;
        for (int i = 0; i < n; i++) {
            result *= 10;
        }
        return result;
    }
}
