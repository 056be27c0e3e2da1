package com.payorch.support;

/** Checks of configured values, for the compact constructors of {@code @ConfigurationProperties} records. */
public final class Settings {

    private Settings() {
    }

    /** The value, or an exception naming the key (the start fails rather than run with a value that cannot work). */
    public static int positive(String key, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(key + " must be at least 1, not " + value);
        }
        return value;
    }
}
