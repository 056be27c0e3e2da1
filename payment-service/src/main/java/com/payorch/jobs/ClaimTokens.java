package com.payorch.jobs;

import java.security.SecureRandom;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.springframework.stereotype.Component;

/**
 * The tokens this instance writes into {@code claimed_by} columns when it claims background work. Every token starts
 * with the same random 64 bits of this instance and ends with random bits of its own, so each batch still fences its
 * own rows, while all of this instance's claims lie between {@link #lowest()} and {@link #highest()}: on shutdown they
 * can be released in one statement per table ({@link ClaimRelease}) instead of waiting for their leases to run out.
 */
@Component
public class ClaimTokens {

    private final long instance = new SecureRandom().nextLong();

    /** A new token of this instance, for one batch (or one claim). */
    public UUID next() {
        return new UUID(instance, ThreadLocalRandom.current().nextLong());
    }

    /** The smallest token of this instance, as PostgreSQL orders uuids (bytewise). */
    public UUID lowest() {
        return new UUID(instance, 0L);
    }

    /** The largest token of this instance, as PostgreSQL orders uuids (bytewise). */
    public UUID highest() {
        return new UUID(instance, -1L);
    }
}
