package com.payorch.connectors.adyen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** Adyen's key lifetime and currency table as the connector publishes them (issue 22, findings 2 and 3). */
class AdyenSettingsTest {

    private static AdyenConnector connector(Map<String, String> extra) {
        Map<String, String> settings = new HashMap<>(Map.of("payments.connectors.adyen.threads", "1"));
        settings.putAll(extra);
        Binder binder = new Binder(new MapConfigurationPropertySource(settings));
        return new AdyenConnector(binder.bindOrCreate("payments.connectors.adyen", Bindable.of(AdyenSettings.class)),
                binder.bindOrCreate("payments", Bindable.of(AdyenAccounts.class)), (c, m, d) -> { });
    }

    @Test
    void keysAreResentForThirtyDaysByDefault() {
        AdyenConnector adyen = connector(Map.of());
        try {
            adyen.checkSettings();
            assertThat(adyen.idempotencyKeyLifetime()).isEqualTo(Optional.of(Duration.ofDays(30)));
        } finally {
            adyen.destroy();
        }
    }

    @Test
    void aLifetimeOfThirtyOneDaysOrMoreIsRefusedAtStartNamingTheKey() {
        for (String refused : new String[] {"P31D", "P60D", "PT0S"}) {
            AdyenConnector adyen = connector(Map.of("payments.connectors.adyen.idempotency-key-lifetime", refused));
            try {
                assertThatThrownBy(adyen::checkSettings).isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("payments.connectors.adyen.idempotency-key-lifetime");
            } finally {
                adyen.destroy();
            }
        }
        AdyenConnector shorter = connector(Map.of("payments.connectors.adyen.idempotency-key-lifetime", "PT744H"));
        try {
            assertThatThrownBy(shorter::checkSettings).as("744 hours are 31 days").isInstanceOf(IllegalStateException.class);
        } finally {
            shorter.destroy();
        }
    }

    @Test
    void amountsAreInAdyensUnits() {
        var units = connector(Map.of()).currencyUnits();

        assertThat(units.toConnector(5000, "CLP")).isEqualTo(OptionalLong.of(500000));
        assertThat(units.toConnector(2790, "ISK")).isEqualTo(OptionalLong.of(279000));
        assertThat(units.toConnector(12300, "CVE")).isEqualTo(OptionalLong.of(123));
        assertThat(units.toConnector(12345, "CVE")).as("CVE 123.45: Adyen has no decimals for CVE").isEmpty();
        assertThat(units.toConnector(1500000, "IDR")).isEqualTo(OptionalLong.of(15000));
        assertThat(units.toConnector(1050, "IDR")).isEmpty();
        assertThat(units.toConnector(1000, "EUR")).isEqualTo(OptionalLong.of(1000));
        assertThat(units.toConnector(1000, "JPY")).isEqualTo(OptionalLong.of(1000));
        assertThat(units.toConnector(1000, "BHD")).isEqualTo(OptionalLong.of(1000));
        assertThat(units.toIso(500000, "CLP")).isEqualTo(OptionalLong.of(5000));
        assertThat(units.source()).contains("docs.adyen.com/development-resources/currency-codes");
    }
}
