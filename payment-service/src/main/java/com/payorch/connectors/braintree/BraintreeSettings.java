package com.payorch.connectors.braintree;

import com.payorch.connectors.ConnectorHttpSettings;
import java.net.URI;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** Braintree's global settings: where its API is, its time-outs and the threads its blocking SDK runs on. */
@ConfigurationProperties("payments.connectors.braintree")
public class BraintreeSettings extends ConnectorHttpSettings {

    /** Braintree's gateway address (for every merchant); point it at a test server to run without Braintree. */
    private URI baseUrl = URI.create("https://api.braintreegateway.com:443");

    public URI getBaseUrl() {
        return baseUrl;
    }

    public void setBaseUrl(URI baseUrl) {
        this.baseUrl = baseUrl;
    }
}
