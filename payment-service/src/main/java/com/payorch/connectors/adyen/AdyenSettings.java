package com.payorch.connectors.adyen;

import com.payorch.connectors.ConnectorHttpSettings;
import java.net.URI;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** `payments.connectors.adyen.*`: where Adyen Checkout is and how the service talks to it (for every merchant). */
@ConfigurationProperties("payments.connectors.adyen")
public class AdyenSettings extends ConnectorHttpSettings {

    /** Adyen Checkout's address, the API version included (for every merchant). */
    private URI checkoutUrl = URI.create("https://checkout-test.adyen.com/v71");

    public URI getCheckoutUrl() {
        return checkoutUrl;
    }

    public void setCheckoutUrl(URI checkoutUrl) {
        this.checkoutUrl = checkoutUrl;
    }
}
