package com.payorch.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

class PeriodicJobTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Test
    void runsAgainAndAgainNeverTwoRunsAtOnceAndGoesOnAfterAFailure() {
        AtomicInteger started = new AtomicInteger();
        AtomicInteger running = new AtomicInteger();
        AtomicBoolean overlapped = new AtomicBoolean();
        PeriodicJob job = new PeriodicJob("counting", Duration.ZERO, Duration.ofMillis(10), () -> Mono.defer(() -> {
            if (running.incrementAndGet() > 1) {
                overlapped.set(true);
            }
            int run = started.incrementAndGet();
            // doOnTerminate, not doFinally: doFinally runs only after the end reached the job, which may have begun
            // the next run by then; the job begins the next run only after this has run.
            return Mono.delay(Duration.ofMillis(20))
                    .then(run % 2 == 0 ? Mono.error(new IllegalStateException("every second run fails")) : Mono.empty())
                    .doOnTerminate(running::decrementAndGet);
        }));
        job.start();
        try {
            await().atMost(WAIT).until(() -> job.completedRuns() >= 6);
        } finally {
            job.stop();
        }
        assertThat(overlapped).isFalse();
        assertThat(job.isRunning()).isFalse();
    }

    @Test
    void aHungJobAndABlockingJobStallNoOtherJob() {
        CountDownLatch release = new CountDownLatch(1);
        PeriodicJob hung = new PeriodicJob("hung", Duration.ZERO, Duration.ofMillis(10), Mono::never);
        PeriodicJob blocking = new PeriodicJob("blocking", Duration.ZERO, Duration.ofMillis(10),
                () -> Mono.fromRunnable(() -> {
                    try {
                        release.await();   // what a careless job might do: block its own thread
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }));
        AtomicInteger runs = new AtomicInteger();
        PeriodicJob healthy = new PeriodicJob("healthy", Duration.ZERO, Duration.ofMillis(10),
                () -> Mono.fromRunnable(runs::incrementAndGet));
        hung.start();
        blocking.start();
        healthy.start();
        try {
            await().atMost(WAIT).until(() -> runs.get() >= 20);
            assertThat(hung.completedRuns()).isZero();
            assertThat(blocking.completedRuns()).isZero();
        } finally {
            release.countDown();
            hung.stop();
            blocking.stop();
            healthy.stop();
        }
    }

    @Test
    void waitsTheInitialDelayAndStopCancelsTheRunInProgress() {
        AtomicBoolean cancelled = new AtomicBoolean();
        AtomicInteger runs = new AtomicInteger();
        AtomicLong firstRunAt = new AtomicLong();
        PeriodicJob job = new PeriodicJob("stopping", Duration.ofMillis(200), Duration.ofMillis(10),
                () -> Mono.fromRunnable(() -> {
                    firstRunAt.compareAndSet(0, System.nanoTime());
                    runs.incrementAndGet();
                }).then(Mono.never()).doOnCancel(() -> cancelled.set(true)));
        // Measured, not sampled right after start(): a test thread paused 200 ms would see the run and fail.
        long startedAt = System.nanoTime();
        job.start();
        await().atMost(WAIT).until(() -> runs.get() == 1);
        assertThat(Duration.ofNanos(firstRunAt.get() - startedAt)).isGreaterThanOrEqualTo(Duration.ofMillis(200));

        job.stop();

        assertThat(cancelled).isTrue();
        assertThat(job.isRunning()).isFalse();
    }

    /**
     * A run that ends at once (nothing to do) starts the next wait before the previous wait has finished cleaning up;
     * that clean-up must not forget the new wait, or a wake during it is lost until the interval ends (an hour here;
     * in the service, a merchant webhook or an event waiting for the next poll).
     */
    @Test
    void aWakeAfterARunThatEndedAtOnceIsNotLost() {
        AtomicInteger runs = new AtomicInteger();
        PeriodicJob job = new PeriodicJob("instant", Duration.ofHours(1), Duration.ofHours(1), () -> Mono.fromRunnable(
                runs::incrementAndGet));
        job.start();
        try {
            job.wake();
            await().atMost(Duration.ofSeconds(5)).until(() -> job.completedRuns() == 1);

            job.wake();

            await().atMost(Duration.ofSeconds(5)).until(() -> job.completedRuns() == 2);
            assertThat(runs).hasValue(2);
        } finally {
            job.stop();
        }
    }

    @Test
    void refusesAnIntervalOfZero() {
        assertThatThrownBy(() -> new PeriodicJob("busy", Duration.ZERO, Duration.ZERO, Mono::empty))
                .hasMessage("The interval of job busy must be longer than zero");
    }
}
