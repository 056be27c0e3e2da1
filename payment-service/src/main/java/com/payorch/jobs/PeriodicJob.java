package com.payorch.jobs;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
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
 */
public final class PeriodicJob implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(PeriodicJob.class);

    private final String name;
    private final Duration initialDelay;
    private final Duration interval;
    private final Supplier<? extends Mono<?>> work;
    private final AtomicLong completedRuns = new AtomicLong();

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
        loop = Mono.delay(initialDelay, thread)
                .then(Mono.defer(this::runOnce).then(Mono.delay(interval, thread)).repeat().then())
                .subscribe(null, e -> log.error("Job {} stopped unexpectedly: {}", name, e.toString(), e));
        log.debug("Job {} started: every {} after a first wait of {}", name, interval, initialDelay);
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
