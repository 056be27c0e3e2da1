package com.payorch.connectors.stripe;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Issue 22 finding 3: a Stripe key lifetime Stripe does not honour stops the start, naming the key. */
class StripeSettingsCheckTest {

    private static StripeSettings lifetime(Duration lifetime) {
        StripeSettings settings = new StripeSettings();
        settings.setIdempotencyKeyLifetime(lifetime);
        return settings;
    }

    @Test
    void theDefaultsAreAccepted() {
        assertThatCode(() -> StripeConnector.checkOwnSettings(new StripeSettings())).doesNotThrowAnyException();
        assertThatCode(() -> StripeConnector.checkOwnSettings(lifetime(Duration.ofHours(23).plusMinutes(59))))
                .doesNotThrowAnyException();
    }

    @Test
    void aKeyLifetimeOf24HoursOrMoreIsRefused() {
        for (Duration tooLong : new Duration[] {Duration.ofHours(24), Duration.ofDays(2)}) {
            assertThatThrownBy(() -> StripeConnector.checkOwnSettings(lifetime(tooLong)))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("payments.connectors.stripe.idempotency-key-lifetime")
                    .hasMessageContaining("below 24 hours");
        }
    }

    @Test
    void aKeyLifetimeOrSearchDelayThatIsNotPositiveIsRefused() {
        assertThatThrownBy(() -> StripeConnector.checkOwnSettings(lifetime(Duration.ZERO)))
                .hasMessageContaining("payments.connectors.stripe.idempotency-key-lifetime");
        StripeSettings settings = new StripeSettings();
        settings.setSearchDelay(Duration.ofSeconds(-1));
        assertThatThrownBy(() -> StripeConnector.checkOwnSettings(settings))
                .hasMessageContaining("payments.connectors.stripe.search-delay");
    }
}
