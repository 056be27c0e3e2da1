package com.payorch.confirmations;

import static org.assertj.core.api.Assertions.assertThat;

import io.r2dbc.spi.R2dbcNonTransientResourceException;
import java.net.ConnectException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.transaction.CannotCreateTransactionException;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;
import reactor.test.scheduler.VirtualTimeScheduler;

/** Recording an accepted e-mail: retried while the database is unavailable, within the claim, nothing else. */
class RecordingRetryTest {

    private static final Duration CLAIM_TIMEOUT = Duration.ofSeconds(20);

    private final VirtualTimeScheduler time = VirtualTimeScheduler.create();
    private final RecordingRetry retry = new RecordingRetry(() -> time.now(TimeUnit.NANOSECONDS), time);
    private final AtomicInteger attempts = new AtomicInteger();

    /** Fails `failures` times with `error`, then answers true, counting attempts. */
    private Mono<Boolean> recording(int failures, Throwable error) {
        return Mono.defer(() -> attempts.incrementAndGet() <= failures ? Mono.error(error) : Mono.just(true));
    }

    private static Throwable databaseDown() {
        return new CannotCreateTransactionException("Could not open R2DBC Connection for transaction",
                new ConnectException("Connection refused: localhost/127.0.0.1:5432"));
    }

    @Test
    void theBoundIsThreeQuartersOfTheClaimTimeoutAfterTheClaim() {
        assertThat(RecordingRetry.deadline(1_000, Duration.ofSeconds(120))).isEqualTo(1_000 + 90_000_000_000L);
        assertThat(RecordingRetry.deadline(0, Duration.ofSeconds(15))).isEqualTo(Duration.ofMillis(11_250).toNanos());
    }

    @Test
    void theBackoffStartsShortAndIsCapped() {
        assertThat(RecordingRetry.backoff(0)).isEqualTo(Duration.ofMillis(100));
        assertThat(RecordingRetry.backoff(1)).isEqualTo(Duration.ofMillis(200));
        assertThat(RecordingRetry.backoff(3)).isEqualTo(Duration.ofMillis(800));
        assertThat(RecordingRetry.backoff(4)).isEqualTo(Duration.ofSeconds(1));
        assertThat(RecordingRetry.backoff(1_000_000)).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void whileTheDatabaseIsUnavailableTheRecordingIsRetriedUntilItSucceeds() {
        long deadline = RecordingRetry.deadline(retry.now(), CLAIM_TIMEOUT);
        // A connection lost mid-statement, then refused connections: 100+200+400+800+1000+1000 ms of backoff.
        AtomicInteger failures = new AtomicInteger();
        Mono<Boolean> recording = Mono.defer(() -> {
            attempts.incrementAndGet();
            return switch (failures.getAndIncrement()) {
                case 0 -> Mono.error(new R2dbcNonTransientResourceException("Connection unexpectedly closed", "08006"));
                case 1, 2, 3, 4, 5 -> Mono.error(databaseDown());
                default -> Mono.just(true);
            };
        });

        StepVerifier.create(retry.record(recording, deadline, "test e-mail"))
                .then(() -> time.advanceTimeBy(Duration.ofMillis(3_499)))
                .expectNoEvent(Duration.ZERO)
                .then(() -> time.advanceTimeBy(Duration.ofMillis(1)))
                .expectNext(true)
                .verifyComplete();
        assertThat(attempts).hasValue(7);
    }

    @Test
    void itGivesUpBeforeTheClaimCanRunOut() {
        long deadline = RecordingRetry.deadline(retry.now(), CLAIM_TIMEOUT);   // 15 s from now

        StepVerifier.create(retry.record(recording(Integer.MAX_VALUE, databaseDown()), deadline, "test e-mail"))
                .then(() -> time.advanceTimeBy(Duration.ofSeconds(15)))
                .expectErrorSatisfies(error -> assertThat(error).isInstanceOf(CannotCreateTransactionException.class))
                .verify();
        // At 0, 0.1, 0.3, 0.7, 1.5 s, then every second from 2.5 s to 14.5 s; the next would start after 15 s.
        assertThat(attempts).hasValue(18);
        assertThat(time.now(TimeUnit.MILLISECONDS)).isLessThan(CLAIM_TIMEOUT.toMillis());
    }

    @Test
    void otherErrorsAreNotRetried() {
        long deadline = RecordingRetry.deadline(retry.now(), CLAIM_TIMEOUT);

        StepVerifier.create(retry.record(recording(1, new IllegalStateException("the claim expired while sending")),
                        deadline, "test e-mail"))
                .expectErrorMessage("the claim expired while sending")
                .verify();
        // A constraint violation is the database answering, not being away.
        StepVerifier.create(retry.record(recording(5, new io.r2dbc.spi.R2dbcDataIntegrityViolationException(
                        "duplicate key value violates unique constraint", "23505")), deadline, "test e-mail"))
                .expectError(io.r2dbc.spi.R2dbcDataIntegrityViolationException.class)
                .verify();
        assertThat(attempts).hasValue(2);
    }

    @Test
    void aDeliveryThatFindsTheClaimLostIsNotRetried() {
        long deadline = RecordingRetry.deadline(retry.now(), CLAIM_TIMEOUT);

        StepVerifier.create(retry.record(Mono.fromSupplier(() -> {
                    attempts.incrementAndGet();
                    return false;   // markSent: the claim is no longer ours
                }), deadline, "test e-mail"))
                .expectNext(false)
                .verifyComplete();
        assertThat(attempts).hasValue(1);
    }
}
