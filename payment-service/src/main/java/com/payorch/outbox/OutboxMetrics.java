package com.payorch.outbox;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * `payments.outbox.backlog` (undispatched events still to be delivered) and `payments.outbox.parked` (dead letters:
 * undispatched events no longer retried), both read from the database every `backlog-refresh`, so a scrape never
 * waits for a query; and `payments.outbox.deliveries` (tags `type`, `result` = success | failure).
 */
@Component
class OutboxMetrics {

    private static final Logger log = LoggerFactory.getLogger(OutboxMetrics.class);

    private final MeterRegistry registry;
    private final OutboxQueue queue;
    private final AtomicLong backlog = new AtomicLong();
    private final AtomicLong parked = new AtomicLong();

    OutboxMetrics(MeterRegistry registry, OutboxQueue queue) {
        this.registry = registry;
        this.queue = queue;
        Gauge.builder("payments.outbox.backlog", backlog, AtomicLong::get)
                .description("Events not yet dispatched by the outbox relay and not parked, as of the last refresh")
                .register(registry);
        Gauge.builder("payments.outbox.parked", parked, AtomicLong::get)
                .description("Dead letters: events parked after payments.outbox.max-attempts failed deliveries,"
                        + " as of the last refresh")
                .register(registry);
    }

    void delivered(String type, boolean success) {
        Counter.builder("payments.outbox.deliveries")
                .description("Outbox event deliveries by event type and result")
                .tag("type", type)
                .tag("result", success ? "success" : "failure")
                .register(registry)
                .increment();
    }

    void parked(String type) {
        Counter.builder("payments.outbox.parked.events")
                .description("Events parked as dead letters, by event type")
                .tag("type", type)
                .register(registry)
                .increment();
    }

    /** One refresh; run every `backlog-refresh` by {@link OutboxJobs}. */
    public Mono<Void> refreshBacklog() {
        return queue.countUndispatchedAndParked()
                .doOnNext(counts -> {
                    backlog.set(counts[0]);
                    parked.set(counts[1]);
                })
                .then()
                .onErrorResume(e -> {
                    log.warn("Could not read the outbox backlog; the gauges keep their last values: {}", e.toString());
                    return Mono.empty();
                });
    }
}
