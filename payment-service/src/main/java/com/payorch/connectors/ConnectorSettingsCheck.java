package com.payorch.connectors;

import java.net.URI;
import java.time.Duration;
import java.util.Locale;

/** The checks connectors make of their own settings at start ({@code Connector.checkSettings}); each names its key. */
public final class ConnectorSettingsCheck {

    private ConnectorSettingsCheck() {
    }

    public static void httpUrl(String key, URI value) {
        String scheme = value == null || value.getScheme() == null ? "" : value.getScheme().toLowerCase(Locale.ROOT);
        if (!(scheme.equals("http") || scheme.equals("https")) || value.getHost() == null) {
            throw new IllegalStateException(key + " must be an absolute http(s) URL: " + value);
        }
    }

    /** The time-outs and the thread pool of a connector's settings at {@code prefix}. */
    public static void transport(String prefix, ConnectorHttpSettings settings) {
        positive(prefix + ".threads", settings.getThreads());
        positive(prefix + ".connect-timeout", settings.getConnectTimeout());
        positive(prefix + ".read-timeout", settings.getReadTimeout());
    }

    public static void positive(String key, int value) {
        if (value <= 0) {
            throw new IllegalStateException(key + " must be at least 1: " + value);
        }
    }

    public static void positive(String key, Duration value) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new IllegalStateException(key + " must be longer than zero: " + value);
        }
    }
}
