package com.payorch.jobs;

import io.r2dbc.pool.ConnectionPool;
import io.r2dbc.postgresql.api.Notification;
import io.r2dbc.postgresql.api.PostgresqlConnection;
import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.ValidationDepth;
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
 * pool and reopened with backoff whenever it drops (a restarted database, a terminated backend) or reports itself
 * invalid (its server turned read-only in a failover: docs/operations.md); every opening wakes all those jobs once,
 * for the work written while nobody listened. The jobs' poll intervals stay the fallback.
 */
@Component
public class WorkNotifications implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(WorkNotifications.class);
    private static final Pattern SAFE_SCHEMA = Pattern.compile("[A-Za-z0-9_]{1,50}");
    private static final Duration VALIDITY_CHECK_EVERY = Duration.ofSeconds(1);

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
                    PostgresqlConnection postgres = postgresOf(connection);
                    if (postgres == null) {
                        log.info("Job wake-ups need PostgreSQL; jobs find new work at their next poll");
                        return Mono.never();
                    }
                    return Mono.firstWithSignal(listen(postgres), untilInvalid(connection));
                },
                Connection::close, (connection, error) -> connection.close(), Connection::close)
                .then(Mono.error(() -> new IllegalStateException("the LISTEN connection was closed")));
    }

    /**
     * Ends in an error once the connection reports itself invalid: closed, or retired beneath the pool because its
     * server refused a write as read-only (a primary fenced or demoted by a failover, which stays up and would send
     * no notification again). The check costs no round trip.
     */
    private static Mono<Void> untilInvalid(Connection connection) {
        return Flux.interval(VALIDITY_CHECK_EVERY)
                .concatMap(tick -> Mono.from(connection.validate(ValidationDepth.LOCAL)))
                .filter(valid -> !valid)
                .next()
                .then(Mono.error(() -> new IllegalStateException("the LISTEN connection is no longer valid")));
    }

    /** The driver's connection beneath wrappers (the read-only eviction's), or null when it is not PostgreSQL's. */
    private static PostgresqlConnection postgresOf(Connection connection) {
        Object inner = connection;
        while (!(inner instanceof PostgresqlConnection) && inner instanceof Wrapped<?> wrapped
                && wrapped.unwrap() != inner) {
            inner = wrapped.unwrap();
        }
        return inner instanceof PostgresqlConnection postgres ? postgres : null;
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

    /**
     * The pool hands out connections for short work; a LISTEN connection is held for good, so it is opened apart:
     * from the factory beneath the pool, which is where Boot puts the decorators (the read-only eviction) too.
     * Without a pool, the innermost factory.
     */
    private ConnectionFactory unpooled() {
        ConnectionFactory factory = connections;
        while (factory instanceof Wrapped<?> wrapped && wrapped.unwrap() instanceof ConnectionFactory inner
                && inner != factory) {
            if (factory instanceof ConnectionPool) {
                return inner;
            }
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
