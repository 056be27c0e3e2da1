package com.payorch.shutdown;

import com.payorch.jobs.ClaimRelease;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * The first thing of a shutdown the load balancer sees is readiness turning false: Spring Boot publishes
 * REFUSING_TRAFFIC as the context starts closing. This lifecycle then keeps the instance serving for
 * {@code payments.shutdown.readiness-drain} while the balancer notices, and only then lets the web server's graceful
 * shutdown stop accepting connections. Not pauseable: a paused context (Spring's test context cache pauses idle
 * ones) is not shutting down. Runs after the jobs stopped and their claims were released
 * ({@link ClaimRelease}), so the drain never delays the hand-over of background work.
 */
@Component
class ReadinessDrain implements SmartLifecycle {

    /** After {@link ClaimRelease#PHASE}, before the web server's graceful shutdown ({@code DEFAULT_PHASE - 1024}). */
    static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 768;
    private static final Logger log = LoggerFactory.getLogger(ReadinessDrain.class);

    private final ShutdownProperties properties;
    private final ApplicationAvailability availability;
    private volatile boolean running;

    ReadinessDrain(ShutdownProperties properties, ApplicationAvailability availability) {
        this.properties = properties;
        this.availability = availability;
    }

    @Override
    public void start() {
        running = true;
    }

    @Override
    public void stop() {
        running = false;
        if (properties.readinessDrain().isZero()) {
            return;
        }
        log.info("Readiness is {}; serving {} more before the web server stops accepting",
                availability.getReadinessState(), properties.readinessDrain());
        try {
            Thread.sleep(properties.readinessDrain().toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public boolean isPauseable() {
        return false;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }
}
