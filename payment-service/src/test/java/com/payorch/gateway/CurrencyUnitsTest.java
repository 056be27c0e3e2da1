package com.payorch.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class CurrencyUnitsTest {

    private final CurrencyUnits adyenLike = new CurrencyUnits(Map.of("CLP", 2, "ISK", 2, "CVE", 0), 0, "test");
    private final CurrencyUnits eightDigits = new CurrencyUnits(Map.of(), 8, "test");

    @Test
    void isoUnitsAreTakenAsTheyAre() {
        assertThat(CurrencyUnits.ISO.toConnector(1234, "EUR")).hasValue(1234);
        assertThat(CurrencyUnits.ISO.toIso(1234, "JPY")).hasValue(1234);
        assertThat(CurrencyUnits.isoExponent("JPY")).isZero();
        assertThat(CurrencyUnits.isoExponent("KWD")).isEqualTo(3);
        assertThat(CurrencyUnits.isoExponent("XYZ")).as("a code Java does not know").isEqualTo(2);
    }

    @Test
    void moreDecimalsThanIsoMultiplyAndComeBackExactly() {
        assertThat(adyenLike.toConnector(5000, "CLP")).hasValue(500000);
        assertThat(adyenLike.toIso(500000, "CLP")).hasValue(5000);
        assertThat(adyenLike.toConnector(10, "isk")).as("codes in any case").hasValue(1000);
    }

    @Test
    void fewerDecimalsThanIsoTakeOnlyWholeUnits() {
        assertThat(adyenLike.toConnector(12300, "CVE")).hasValue(123);
        assertThat(adyenLike.toConnector(12345, "CVE")).isEmpty();
        assertThat(adyenLike.toIso(123, "CVE")).hasValue(12300);
    }

    @Test
    void aConnectorAmountWithoutAnExactIsoFormHasNone() {
        assertThat(adyenLike.toIso(500001, "CLP")).isEmpty();
    }

    @Test
    void theMaximumCountsDigitsInTheConnectorsUnits() {
        assertThat(eightDigits.toConnector(99_999_999, "EUR")).hasValue(99_999_999);
        assertThat(eightDigits.toConnector(100_000_000, "EUR")).isEmpty();
        assertThat(adyenLike.toConnector(Long.MAX_VALUE / 10, "CLP")).as("overflow").isEmpty();
    }

    @Test
    void aStepInTheConnectorsUnitsRefusesAmountsBetweenSteps() {
        CurrencyUnits threeDecimals = new CurrencyUnits(Map.of(), 8, "test", Map.of("KWD", 10L));
        assertThat(threeDecimals.toConnector(5120, "KWD")).hasValue(5120);
        assertThat(threeDecimals.toConnector(5124, "KWD")).isEmpty();
    }
}
