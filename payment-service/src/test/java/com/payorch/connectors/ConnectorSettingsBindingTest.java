package com.payorch.connectors;

import com.payorch.connectors.adyen.AdyenAccounts;
import com.payorch.connectors.stripe.StripeAccounts;
import com.payorch.connectors.stripe.StripeSettings;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/** The README's environment variables bind to the connector keys (relaxed binding, as Boot reads the environment). */
class ConnectorSettingsBindingTest {

    @Test
    void theReadmesEnvironmentVariablesConfigureStripeAndTheRoute() {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, Map.of(
                "PAYMENTS_MERCHANTS_DEMO_CONNECTORS_STRIPE_SECRETKEY", "sk_test_x",
                "PAYMENTS_MERCHANTS_DEMO_CONNECTORS_STRIPE_WEBHOOKSECRET", "whsec_x",
                "PAYMENTS_MERCHANTS_DEMO_CONNECTORS_ADYEN_HMACKEY", "AABB",
                "PAYMENTS_MERCHANTS_DEMO_ROUTING", "stripe,sandbox",
                "PAYMENTS_CONNECTORS_STRIPE_APIBASE", "http://127.0.0.1:12111")));

        Binder binder = new Binder(ConfigurationPropertySources.get(environment));
        RoutingProperties routing = binder.bind("payments", Bindable.of(RoutingProperties.class)).get();
        StripeAccounts stripe = binder.bind("payments", Bindable.of(StripeAccounts.class)).get();
        AdyenAccounts adyen = binder.bind("payments", Bindable.of(AdyenAccounts.class)).get();
        StripeSettings stripeSettings = binder.bind("payments.connectors.stripe", Bindable.of(StripeSettings.class))
                .get();

        assertThat(stripe.account("demo").getSecretKey()).isEqualTo("sk_test_x");
        assertThat(stripe.account("demo").getWebhookSecret()).isEqualTo("whsec_x");
        assertThat(adyen.account("demo").getHmacKey()).isEqualTo("AABB");
        assertThat(routing.merchant("demo").route("JPY")).containsExactly("stripe", "sandbox");
        assertThat(stripeSettings.getApiBase()).hasToString("http://127.0.0.1:12111");
        assertThat(stripe.account("demo").toString()).doesNotContain("sk_test_x");
    }
}
