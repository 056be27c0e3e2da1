package com.payorch.jobs;

import io.r2dbc.postgresql.api.Notification;
import io.r2dbc.postgresql.api.PostgresqlConnection;
import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.Wrapped;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.util.retry.Retry;

/**
 * One LISTEN connection per instance that wakes idle jobs when new work is written. The triggers of
 * `V13__wake_up_notifications.sql` send `pg_notify('payorch_work.<schema>', topic)` when they insert work into a
 * table whose job may be asleep (topics `outbox`, `sandbox`, `merchant_webhooks`); each {@link PeriodicJob} that
 * {@link PeriodicJob#wakesOn declared} the topic is woken (after its delay). The connection is opened outside the
 * pool and reopened with backoff whenever it drops (a restarted database, a terminated backend); every opening wakes
 * all those jobs once, for the work written while nobody listened. The jobs' poll intervals stay the fallback.
 */
@Component
public class WorkNotifications implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(WorkNotifications.class);
    private static final Pattern SAFE_SCHEMA = Pattern.compile("[A-Za-z0-9_]{1,50}");

    private final ConnectionFactory connections;
    private final ObjectProvider<PeriodicJob> jobs;
    private final WakeUpProperties properties;
    private final AtomicLong openings = new AtomicLong();
    private final AtomicLong received = new AtomicLong();

    private volatile Disposable listening;

    WorkNotifications(ConnectionFactory connections, ObjectProvider<PeriodicJob> jobs, WakeUpProperties properties) {
        this.connections = connections;
        this.jobs = jobs;
        this.properties = properties;
    }

    /** The channel the triggers notify for tables in {@code schema}. */
    static String channel(String schema) {
        return "payorch_work." + schema;
    }

    /** How often the LISTEN connection was opened (1 after the start, more after reconnections). */
    public long openings() {
        return openings.get();
    }

    /** Notifications received since the start. */
    public long received() {
        return received.get();
    }

    @Override
    public synchronized void start() {
        if (listening != null || !properties.enabled()) {
            return;
        }
        listening = Mono.defer(this::listenUntilLost)
                .retryWhen(Retry.backoff(Long.MAX_VALUE, Duration.ofMillis(100))
                        .maxBackoff(properties.maxReconnectWait())
                        .transientErrors(true)
                        .doBeforeRetry(retry -> log.warn("The LISTEN connection for job wake-ups is lost; reopening"
                                + " it (the jobs poll meanwhile): {}", retry.failure().toString())))
                .subscribe(null, e -> log.error("Job wake-ups stopped: {}", e.toString(), e));
    }

    /** Listens until the connection is lost, which always ends in an error so that the retry reopens it. */
    private Mono<Void> listenUntilLost() {
        return Mono.usingWhen(Mono.from(unpooled().create()),
                connection -> {
                    if (!(connection instanceof PostgresqlConnection postgres)) {
                        log.info("Job wake-ups need PostgreSQL; jobs find new work at their next poll");
                        return Mono.never();
                    }
                    return listen(postgres);
                },
                Connection::close, (connection, error) -> connection.close(), Connection::close)
                .then(Mono.error(() -> new IllegalStateException("the LISTEN connection was closed")));
    }

    /**
     * Subscribes to the connection's notifications before it sends the LISTEN: the driver hands a notification only
     * to the subscribers present when it arrives, so one sent right after the LISTEN would otherwise be lost until
     * the next poll. Once the LISTEN is answered the opening counts and wakes the jobs for the work written before.
     */
    private Mono<Void> listen(PostgresqlConnection connection) {
        return Flux.from(connection.createStatement("select current_schema()").execute())
                .flatMap(result -> result.map((row, meta) -> row.get(0, String.class)))
                .next()
                .flatMap(schema -> {
                    if (!SAFE_SCHEMA.matcher(schema).matches()) {
                        return Mono.error(new IllegalStateException("schema name " + schema
                                + " cannot be a notification channel"));
                    }
                    Mono<Void> dispatching = connection.getNotifications().doOnNext(this::dispatch).then();
                    String listen = "LISTEN \"" + channel(schema) + "\"";
                    Mono<Void> listening = Flux.from(connection.createStatement(listen).execute())
                            .flatMap(result -> result.getRowsUpdated())
                            .then(Mono.fromRunnable(() -> {
                                openings.incrementAndGet();
                                log.debug("Listening for job wake-ups on {}", channel(schema));
                                wakeAll();
                            }));
                    // Mono.when subscribes in order: the notifications first, then the LISTEN.
                    return Mono.when(dispatching, listening);
                });
    }

    private void dispatch(Notification notification) {
        received.incrementAndGet();
        String topic = notification.getParameter();
        for (PeriodicJob job : registered()) {
            if (job.wakeTopic().filter(t -> t.equals(topic)).isPresent()) {
                job.wakeAfter(job.wakeDelay());
            }
        }
    }

    private void wakeAll() {
        registered().forEach(job -> job.wakeAfter(job.wakeDelay()));
    }

    private List<PeriodicJob> registered() {
        return jobs.orderedStream().filter(job -> job.wakeTopic().isPresent()).toList();
    }

    /** The pool hands out connections for short work; a LISTEN connection is held for good, so it is opened apart. */
    private ConnectionFactory unpooled() {
        ConnectionFactory factory = connections;
        while (factory instanceof Wrapped<?> wrapped && wrapped.unwrap() instanceof ConnectionFactory inner
                && inner != factory) {
            factory = inner;
        }
        return factory;
    }

    @Override
    public synchronized void stop() {
        if (listening != null) {
            listening.dispose();
            listening = null;
        }
    }

    @Override
    public boolean isRunning() {
        return listening != null;
    }
}
