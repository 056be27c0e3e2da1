package com.payorch.shutdown;

import com.payorch.jobs.ClaimRelease;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * The first thing of a shutdown the load balancer sees: readiness turns false (Spring Boot publishes REFUSING_TRAFFIC
 * when the context starts closing; published here again so it holds however the stop began), then the instance keeps
 * serving for {@code payments.shutdown.readiness-drain} while the balancer notices, and only then lets the web
 * server's graceful shutdown stop accepting connections. Runs after the jobs stopped and their claims were released
 * ({@link ClaimRelease}), so the drain never delays the hand-over of background work.
 */
@Component
class ReadinessDrain implements SmartLifecycle {

    /** After {@link ClaimRelease#PHASE}, before the web server's graceful shutdown ({@code DEFAULT_PHASE - 1024}). */
    static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 768;
    private static final Logger log = LoggerFactory.getLogger(ReadinessDrain.class);

    private final ShutdownProperties properties;
    private final ApplicationEventPublisher events;
    private final ApplicationAvailability availability;
    private volatile boolean running;

    ReadinessDrain(ShutdownProperties properties, ApplicationEventPublisher events,
                   ApplicationAvailability availability) {
        this.properties = properties;
        this.events = events;
        this.availability = availability;
    }

    @Override
    public void start() {
        running = true;
    }

    @Override
    public void stop() {
        running = false;
        if (availability.getReadinessState() != ReadinessState.REFUSING_TRAFFIC) {
            AvailabilityChangeEvent.publish(events, this, ReadinessState.REFUSING_TRAFFIC);
        }
        if (properties.readinessDrain().isZero()) {
            return;
        }
        log.info("Readiness is down; serving {} more before the web server stops accepting",
                properties.readinessDrain());
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
    public int getPhase() {
        return PHASE;
    }
}
