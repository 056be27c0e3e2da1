package com.payorch.connectors.stripe;

import java.net.URI;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** `payments.connectors.stripe.*`: where Stripe's API is and how the service talks to it (for every merchant). */
@ConfigurationProperties("payments.connectors.stripe")
public class StripeSettings {

    /** Stripe's API address (for every merchant); point it at a test server to run without Stripe. */
    private URI apiBase = URI.create("https://api.stripe.com");
    /** How long connecting to the PSP may take; a refused or timed-out connect is "not sent". */
    private Duration connectTimeout = Duration.ofSeconds(5);
    /** How long the PSP may take to answer; no answer by then is an ambiguous failure. */
    private Duration readTimeout = Duration.ofSeconds(8);
    /** Threads for Stripe's blocking SDK calls (bounded, never an event-loop thread; Stripe's own pool). */
    private int threads = 32;

    public URI getApiBase() {
        return apiBase;
    }

    public void setApiBase(URI apiBase) {
        this.apiBase = apiBase;
    }

    public Duration getConnectTimeout() {
        return connectTimeout;
    }

    public void setConnectTimeout(Duration connectTimeout) {
        this.connectTimeout = connectTimeout;
    }

    public Duration getReadTimeout() {
        return readTimeout;
    }

    public void setReadTimeout(Duration readTimeout) {
        this.readTimeout = readTimeout;
    }

    public int getThreads() {
        return threads;
    }

    public void setThreads(int threads) {
        this.threads = threads;
    }
}
