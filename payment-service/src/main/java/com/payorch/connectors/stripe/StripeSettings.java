package com.payorch.connectors.stripe;

import com.payorch.connectors.ConnectorHttpSettings;
import java.net.URI;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** `payments.connectors.stripe.*`: where Stripe's API is and how the service talks to it (for every merchant). */
@ConfigurationProperties("payments.connectors.stripe")
public class StripeSettings extends ConnectorHttpSettings {

    /** Stripe's API address (for every merchant); point it at a test server to run without Stripe. */
    private URI apiBase = URI.create("https://api.stripe.com");

    /**
     * How long the service resends with an attempt's (or refund's) key: Stripe prunes keys "after they're at least
     * 24 hours old" and then makes a NEW object for the same key (https://docs.stripe.com/idempotency), so this
     * must stay below 24 hours.
     */
    private Duration idempotencyKeyLifetime = Duration.ofHours(23);

    /**
     * How long after an attempt was sent an empty search is still no evidence: Stripe's search index lags ("under
     * normal operating conditions, data is searchable in under 1 minute", https://docs.stripe.com/search).
     */
    private Duration searchDelay = Duration.ofMinutes(1);

    public URI getApiBase() {
        return apiBase;
    }

    public void setApiBase(URI apiBase) {
        this.apiBase = apiBase;
    }

    public Duration getIdempotencyKeyLifetime() {
        return idempotencyKeyLifetime;
    }

    public void setIdempotencyKeyLifetime(Duration idempotencyKeyLifetime) {
        this.idempotencyKeyLifetime = idempotencyKeyLifetime;
    }

    public Duration getSearchDelay() {
        return searchDelay;
    }

    public void setSearchDelay(Duration searchDelay) {
        this.searchDelay = searchDelay;
    }
}
