package com.payorch.support;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/** RFC 3339 UTC timestamps with millisecond precision, the only form the API shows. */
public final class Timestamps {

    private static final DateTimeFormatter RFC_3339_MILLIS =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    private Timestamps() {
    }

    /** Now, cut to the precision the API shows, so a stored time reads back exactly as it was first shown. */
    public static Instant now(Clock clock) {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }

    public static String format(Instant instant) {
        return instant == null ? null : RFC_3339_MILLIS.format(instant);
    }
}
