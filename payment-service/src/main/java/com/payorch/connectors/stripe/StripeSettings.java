package com.payorch.connectors.stripe;

import com.payorch.connectors.ConnectorHttpSettings;
import java.net.URI;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** `payments.connectors.stripe.*`: where Stripe's API is and how the service talks to it (for every merchant). */
@ConfigurationProperties("payments.connectors.stripe")
public class StripeSettings extends ConnectorHttpSettings {

    /** Stripe's API address (for every merchant); point it at a test server to run without Stripe. */
    private URI apiBase = URI.create("https://api.stripe.com");

    public URI getApiBase() {
        return apiBase;
    }

    public void setApiBase(URI apiBase) {
        this.apiBase = apiBase;
    }
}
