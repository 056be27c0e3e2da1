package com.payorch.confirmations;

import com.payorch.support.DatabaseErrors;
import java.time.Duration;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import reactor.util.retry.Retry;

/**
 * Records an e-mail the mail server has accepted, retrying while the database is unavailable.
 *
 * <p>An accepted e-mail cannot be taken back: if recording it gave up at the first database error, the claim would run
 * out and a redelivery would send the e-mail again. So a recording that fails because the database cannot serve
 * ({@link DatabaseErrors#isUnavailable}: no connection, connection lost, server shutting down or starting up, too many
 * connections, timeouts) is tried again, with a short capped backoff, until 3/4 of `claim-timeout` after the claim.
 * Why that bound: the claim runs out `claim-timeout` after it was taken, and only then may another delivery take the
 * row over and send again. Stopping well before that means no redelivery can take over while this one still retries
 * (the quarter left covers the last attempt, the clocks and the claim statement's own latency), and the claim, not
 * a guess, decides who records. Any other error (the claim lost, markSent answering false) is not retried.
 */
final class RecordingRetry {

    private static final Logger log = LoggerFactory.getLogger(RecordingRetry.class);

    static final Duration FIRST_BACKOFF = Duration.ofMillis(100);
    static final Duration MAX_BACKOFF = Duration.ofSeconds(1);

    private final LongSupplier nanoTime;
    private final Scheduler timer;

    /** System.nanoTime and Reactor's parallel scheduler. */
    RecordingRetry() {
        this(System::nanoTime, Schedulers.parallel());
    }

    RecordingRetry(LongSupplier nanoTime, Scheduler timer) {
        this.nanoTime = nanoTime;
        this.timer = timer;
    }

    /** Now, by the monotonic clock the deadlines are counted on: take it before the claim statement is sent. */
    long now() {
        return nanoTime.getAsLong();
    }

    /** The last moment to start a recording attempt for a claim taken at `claimedAt` ({@link #now()}). */
    static long deadline(long claimedAt, Duration claimTimeout) {
        return claimedAt + claimTimeout.toNanos() / 4 * 3;
    }

    /**
     * `recording` (subscribed to again for each attempt, so each is its own transaction), retried while the database
     * is unavailable and the next attempt would start before `deadline`; then the last error.
     */
    <T> Mono<T> record(Mono<T> recording, long deadline, String what) {
        return recording.retryWhen(Retry.from(failures -> failures.concatMap(failure -> {
            Throwable error = failure.failure();
            Duration backoff = backoff(failure.totalRetries());
            if (!DatabaseErrors.isUnavailable(error)) {
                return Mono.error(error);
            }
            if (nanoTime.getAsLong() + backoff.toNanos() > deadline) {
                log.error("Could not record the {} after {} attempts; the mail server has it, so a redelivery after the"
                                + " claim runs out sends it again (same Message-ID): {}", what,
                        failure.totalRetries() + 1, DatabaseErrors.summary(error));
                return Mono.error(error);
            }
            log.warn("Could not record the {} on attempt {}: the database is unavailable; trying again in {}: {}",
                    what, failure.totalRetries() + 1, backoff, DatabaseErrors.summary(error));
            return Mono.delay(backoff, timer);
        })));
    }

    /** 100 ms, 200 ms, 400 ms, 800 ms, then 1 s. */
    static Duration backoff(long retriesSoFar) {
        if (retriesSoFar >= 4) {
            return MAX_BACKOFF;
        }
        Duration backoff = FIRST_BACKOFF.multipliedBy(1L << retriesSoFar);
        return backoff.compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff;
    }
}
