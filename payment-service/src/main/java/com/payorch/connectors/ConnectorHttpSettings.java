package com.payorch.connectors;

import java.time.Duration;

/**
 * What every PSP connector that calls its provider over HTTP through a blocking SDK sets the same way: its time-outs
 * and its own bounded thread pool. Each connector's settings class adds where its provider is.
 */
public abstract class ConnectorHttpSettings {

    /** How long connecting to the PSP may take; a refused or timed-out connect is "not sent". */
    private Duration connectTimeout = Duration.ofSeconds(5);
    /** How long the PSP may take to answer; no answer by then is an ambiguous failure. */
    private Duration readTimeout = Duration.ofSeconds(8);
    /** Threads for this connector's blocking SDK calls (bounded, never an event-loop thread, its own pool). */
    private int threads = 32;

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
