package com.payorch.connectors.adyen;

import java.net.URI;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** `payments.connectors.adyen.*`: where Adyen Checkout is and how the service talks to it (for every merchant). */
@ConfigurationProperties("payments.connectors.adyen")
public class AdyenSettings {

    /** Adyen Checkout's address, the API version included (for every merchant). */
    private URI checkoutUrl = URI.create("https://checkout-test.adyen.com/v71");
    /** How long connecting to the PSP may take; a refused or timed-out connect is "not sent". */
    private Duration connectTimeout = Duration.ofSeconds(5);
    /** How long the PSP may take to answer; no answer by then is an ambiguous failure. */
    private Duration readTimeout = Duration.ofSeconds(8);
    /** Threads for Adyen's blocking SDK calls (bounded, never an event-loop thread; Adyen's own pool). */
    private int threads = 32;

    public URI getCheckoutUrl() {
        return checkoutUrl;
    }

    public void setCheckoutUrl(URI checkoutUrl) {
        this.checkoutUrl = checkoutUrl;
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
