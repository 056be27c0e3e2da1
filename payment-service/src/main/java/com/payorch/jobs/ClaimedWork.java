package com.payorch.jobs;

import java.util.UUID;
import reactor.core.publisher.Mono;

/**
 * A table whose rows background jobs claim with a lease and a {@link ClaimTokens} token. On shutdown
 * {@link ClaimRelease} asks each to give back the claims of this instance that are still held (work interrupted by
 * the stop), so that another instance takes them over at its next poll rather than after the lease.
 */
public interface ClaimedWork {

    /** What is claimed, for the log. */
    String claimedWhat();

    /**
     * Releases every live claim whose token lies between {@code lowest} and {@code highest} (one statement), undoing
     * what the claim counted; answers how many rows were released.
     */
    Mono<Long> releaseClaims(UUID lowest, UUID highest);
}
