package com.payorch.connectors;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/** The README's environment variables bind to the connector keys (relaxed binding, as Boot reads the environment). */
class ConnectorPropertiesBindingTest {

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

        ConnectorProperties properties = new Binder(ConfigurationPropertySources.get(environment))
                .bind("payments", Bindable.of(ConnectorProperties.class)).get();

        ConnectorProperties.Merchant demo = properties.merchant("demo");
        assertThat(demo.getConnectors().getStripe().getSecretKey()).isEqualTo("sk_test_x");
        assertThat(demo.getConnectors().getStripe().getWebhookSecret()).isEqualTo("whsec_x");
        assertThat(demo.getConnectors().getAdyen().getHmacKey()).isEqualTo("AABB");
        assertThat(demo.route("JPY")).containsExactly("stripe", "sandbox");
        assertThat(properties.getConnectors().getStripe().getApiBase()).hasToString("http://127.0.0.1:12111");
        assertThat(demo.getConnectors().getStripe().toString()).doesNotContain("sk_test_x");
    }
}
