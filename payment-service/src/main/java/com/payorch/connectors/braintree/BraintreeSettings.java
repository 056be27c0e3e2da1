package com.payorch.connectors.braintree;

import java.net.URI;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** Braintree's global settings: where its API is, its time-outs and the threads its blocking SDK runs on. */
@ConfigurationProperties("payments.connectors.braintree")
public class BraintreeSettings {

    /** Braintree's gateway address (for every merchant); point it at a test server to run without Braintree. */
    private URI baseUrl = URI.create("https://api.braintreegateway.com:443");
    /** How long connecting to Braintree may take; a refused connection is "not sent". */
    private Duration connectTimeout = Duration.ofSeconds(5);
    /** How long Braintree may take to answer; no answer by then is an ambiguous failure. */
    private Duration readTimeout = Duration.ofSeconds(8);
    /** Threads for the blocking Braintree SDK calls (bounded, never an event-loop thread, not shared). */
    private int threads = 16;

    public URI getBaseUrl() {
        return baseUrl;
    }

    public void setBaseUrl(URI baseUrl) {
        this.baseUrl = baseUrl;
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
