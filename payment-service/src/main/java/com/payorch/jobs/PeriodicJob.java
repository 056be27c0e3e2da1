package com.payorch.jobs;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import reactor.core.Disposable;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * One background job with its own execution: a loop that waits `initialDelay`, runs the job's Mono, waits
 * `interval` after the run ended (fixed delay: runs of one job never overlap), and so on until the application
 * stops. Each job has its own single timer thread, so a job that is slow, hung or (by mistake) blocking delays only
 * itself, never another job; the work itself is reactive and holds no thread while it waits for I/O.
 *
 * <p>Declare one as a bean: it starts once the application context is refreshed and the web server runs (its
 * default phase comes after the server's), and stops when the context closes, cancelling a run in progress. A run
 * that fails is logged and the loop goes on; {@code work} is called afresh for every run.
 *
 * <p>{@link #wake()} cuts the current wait short (a run in progress is followed at once by another), so a job
 * with new work need not wait for its interval, which stays the fallback; {@link WorkNotifications} wakes the jobs
 * that declared a {@link #wakesOn topic} when PostgreSQL notifies it.
 */
public final class PeriodicJob implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(PeriodicJob.class);

    private final String name;
    private final Duration initialDelay;
    private final Duration interval;
    private final Supplier<? extends Mono<?>> work;
    private final AtomicLong completedRuns = new AtomicLong();
    private final AtomicBoolean wakeRequested = new AtomicBoolean();

    /** The current wait's wake-up, while the job waits; a wait clears only its own (the next may have begun). */
    private final AtomicReference<Sinks.@Nullable One<Boolean>> waiting = new AtomicReference<>();
    private volatile @Nullable String topic;
    private volatile Duration wakeDelay = Duration.ZERO;

    private volatile Scheduler timer;
    private volatile Disposable loop;

    public PeriodicJob(String name, Duration initialDelay, Duration interval, Supplier<? extends Mono<?>> work) {
        this.name = Objects.requireNonNull(name, "name");
        this.initialDelay = requireNotNegative(initialDelay, "initialDelay");
        this.interval = requireNotNegative(interval, "interval");
        if (interval.isZero()) {
            throw new IllegalArgumentException("The interval of job " + name + " must be longer than zero");
        }
        this.work = Objects.requireNonNull(work, "work");
    }

    public String name() {
        return name;
    }

    public Duration interval() {
        return interval;
    }

    /**
     * Declares that a PostgreSQL notification with payload {@code topic} (see {@link WorkNotifications}) means new
     * work for this job, due {@code delay} later: the job is then woken that much later.
     */
    public PeriodicJob wakesOn(String topic, Duration delay) {
        this.topic = Objects.requireNonNull(topic, "topic");
        this.wakeDelay = requireNotNegative(delay, "delay");
        return this;
    }

    /** The notification payload that wakes this job, if any. */
    public Optional<String> wakeTopic() {
        return Optional.ofNullable(topic);
    }

    /** How long after its notification the job's work is due. */
    public Duration wakeDelay() {
        return wakeDelay;
    }

    /**
     * Runs the job now instead of at the end of its current wait; during a run, the next one starts as soon as it
     * ends. Wakes that come together make one run. Does nothing before the start or after the stop.
     */
    public void wake() {
        wakeRequested.set(true);
        Sinks.One<Boolean> current = waiting.get();
        if (current != null) {
            current.tryEmitValue(true);
        }
    }

    /** {@link #wake()} after {@code delay} (on this job's timer; a stopped job ignores it). */
    public void wakeAfter(Duration delay) {
        Scheduler thread = timer;
        if (thread == null) {
            return;
        }
        if (delay.isZero() || delay.isNegative()) {
            wake();
            return;
        }
        Mono.delay(delay, thread).subscribe(tick -> wake(), e -> { });
    }

    /** Runs that ended (successfully or not) since the start: lets tests and probes see that the job is alive. */
    public long completedRuns() {
        return completedRuns.get();
    }

    @Override
    public synchronized void start() {
        if (loop != null) {
            return;
        }
        Scheduler thread = Schedulers.newSingle("job-" + name, true);
        timer = thread;
        loop = pause(thread, initialDelay)
                .then(Mono.defer(this::runOnce).then(Mono.defer(() -> pause(thread, interval))).repeat().then())
                .subscribe(null, e -> log.error("Job {} stopped unexpectedly: {}", name, e.toString(), e));
        log.debug("Job {} started: every {} after a first wait of {}", name, interval, initialDelay);
    }

    /** A wait before a run: {@code length}, or less when woken; a wake during the previous run skips it. */
    private Mono<Void> pause(Scheduler thread, Duration length) {
        Sinks.One<Boolean> wake = Sinks.one();
        waiting.set(wake);
        if (wakeRequested.getAndSet(false)) {
            waiting.compareAndSet(wake, null);
            return Mono.empty().publishOn(thread).then();
        }
        return Mono.firstWithSignal(Mono.delay(length, thread).then(),
                        wake.asMono().doOnNext(woken -> wakeRequested.set(false)).then())
                .publishOn(thread)
                // After a run that ended at once the next wait has begun by now: clearing it would lose its wakes.
                .doFinally(signal -> waiting.compareAndSet(wake, null));
    }

    private Mono<Void> runOnce() {
        return Mono.defer(work)
                .then()
                .onErrorResume(e -> {
                    log.warn("Job {} failed; the next run tries again in {}: {}", name, interval, e.toString());
                    return Mono.empty();
                })
                .doFinally(signal -> completedRuns.incrementAndGet());
    }

    @Override
    public synchronized void stop() {
        if (loop != null) {
            loop.dispose();
            loop = null;
        }
        if (timer != null) {
            timer.dispose();
            timer = null;
        }
    }

    @Override
    public boolean isRunning() {
        return loop != null;
    }

    @Override
    public String toString() {
        return "PeriodicJob[" + name + " every " + interval + "]";
    }

    private static Duration requireNotNegative(Duration duration, String what) {
        Objects.requireNonNull(duration, what);
        if (duration.isNegative()) {
            throw new IllegalArgumentException(what + " must not be negative: " + duration);
        }
        return duration;
    }
}
