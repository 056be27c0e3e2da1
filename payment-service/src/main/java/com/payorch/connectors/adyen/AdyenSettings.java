package com.payorch.connectors.adyen;

import com.payorch.connectors.ConnectorHttpSettings;
import java.net.URI;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** `payments.connectors.adyen.*`: where Adyen Checkout is and how the service talks to it (for every merchant). */
@ConfigurationProperties("payments.connectors.adyen")
public class AdyenSettings extends ConnectorHttpSettings {

    /** Adyen Checkout's address, the API version included (for every merchant). */
    private URI checkoutUrl = URI.create("https://checkout-test.adyen.com/v71");

    /**
     * How long the service resends a payment or refund with the same Idempotency-Key. Adyen keeps keys for at least
     * 31 days ("API idempotency", https://docs.adyen.com/development-resources/api-idempotency); past this the service
     * never resends with that key (a new charge would follow), and a value of 31 days or more is refused at start.
     */
    private Duration idempotencyKeyLifetime = Duration.ofDays(30);

    public Duration getIdempotencyKeyLifetime() {
        return idempotencyKeyLifetime;
    }

    public void setIdempotencyKeyLifetime(Duration idempotencyKeyLifetime) {
        this.idempotencyKeyLifetime = idempotencyKeyLifetime;
    }

    public URI getCheckoutUrl() {
        return checkoutUrl;
    }

    public void setCheckoutUrl(URI checkoutUrl) {
        this.checkoutUrl = checkoutUrl;
    }
}
