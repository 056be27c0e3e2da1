package com.payorch.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.payorch.testsupport.TestDatabase;
import io.r2dbc.pool.ConnectionPool;
import io.r2dbc.pool.ConnectionPoolConfiguration;
import io.r2dbc.postgresql.api.PostgresqlConnection;
import io.r2dbc.postgresql.api.PostgresqlResult;
import io.r2dbc.postgresql.api.PostgresqlStatement;
import io.r2dbc.spi.ConnectionFactories;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.ConnectionFactoryMetadata;
import io.r2dbc.spi.ConnectionFactoryOptions;
import io.r2dbc.spi.Option;
import io.r2dbc.spi.Wrapped;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Publisher;
import org.springframework.beans.factory.support.StaticListableBeanFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The LISTEN connection of {@link WorkNotifications}. A notification sent the moment the LISTEN has taken effect,
 * before the LISTEN's own answer reaches the listener, is not lost: it subscribes to the connection's notifications
 * before it sends the LISTEN (the driver hands each notification to the subscribers present when it arrives and keeps
 * none for later ones). And a connection that reports itself invalid is replaced, though it never dropped.
 */
class WorkNotificationsIT {

    private static final String SCHEMA = "work_notifications_tests";

    @Test
    void aNotificationSentRightAfterTheListenIsDispatched() throws Exception {
        PeriodicJob outboxJob = new PeriodicJob("outbox", Duration.ofHours(1), Duration.ofHours(1), Mono::empty)
                .wakesOn("outbox", Duration.ZERO);
        WorkNotifications notifications = new WorkNotifications(new NotifyingRightAfterListen(connections()),
                new StaticListableBeanFactory(Map.of("outbox", outboxJob)).getBeanProvider(PeriodicJob.class),
                new WakeUpProperties(true, Duration.ofSeconds(1)));
        outboxJob.start();
        notifications.start();
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> notifications.openings() >= 1);
            assertThat(notifications.received())
                    .as("the notification that arrived before the LISTEN's answer, counted before the opening")
                    .isEqualTo(1);
        } finally {
            notifications.stop();
            outboxJob.stop();
        }
    }

    /**
     * A fenced or demoted primary stays up: the LISTEN connection to it would never drop, and never hear a
     * notification again. Once the connection reports itself invalid (as the read-only eviction beneath the pool
     * makes every connection it opened before a refusal do), it is closed and opened again, through that factory.
     */
    @Test
    void theListenConnectionIsOpenedBeneathThePoolAndReopenedOnceItReportsItselfInvalid() throws Exception {
        PeriodicJob outboxJob = new PeriodicJob("outbox", Duration.ofHours(1), Duration.ofHours(1), Mono::empty)
                .wakesOn("outbox", Duration.ZERO);
        RetiringFactory beneathThePool = new RetiringFactory(connections());
        ConnectionPool pool = new ConnectionPool(ConnectionPoolConfiguration.builder(beneathThePool)
                .initialSize(0).maxSize(2).build());
        WorkNotifications notifications = new WorkNotifications(pool,
                new StaticListableBeanFactory(Map.of("outbox", outboxJob)).getBeanProvider(PeriodicJob.class),
                new WakeUpProperties(true, Duration.ofSeconds(1)));
        outboxJob.start();
        notifications.start();
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> notifications.openings() == 1);
            assertThat(beneathThePool.opened()).as("the LISTEN connection comes from the factory beneath the pool")
                    .isEqualTo(1);

            beneathThePool.retireAllOpened();

            await().atMost(Duration.ofSeconds(30)).until(() -> notifications.openings() == 2);
            assertThat(beneathThePool.opened()).isEqualTo(2);
            await().atMost(Duration.ofSeconds(30)).until(() -> beneathThePool.closed() == 1);
            assertThat(notifications.openings()).as("the new connection is valid: kept").isEqualTo(2);
        } finally {
            notifications.stop();
            outboxJob.stop();
            pool.dispose();
        }
    }

    private static ConnectionFactory connections() throws Exception {
        TestDatabase database = TestDatabase.get();
        try (Connection jdbc = DriverManager.getConnection(database.jdbcUrl(), database.username(),
                database.password()); Statement statement = jdbc.createStatement()) {
            statement.execute("create schema if not exists " + SCHEMA);
        }
        return ConnectionFactories.get(ConnectionFactoryOptions.parse(database.r2dbcUrl()).mutate()
                .option(ConnectionFactoryOptions.USER, database.username())
                .option(ConnectionFactoryOptions.PASSWORD, database.password())
                .option(Option.valueOf("schema"), SCHEMA)
                .build());
    }

    /**
     * Stands for the read-only eviction beneath the pool: its connections (which wrap the driver's) report themselves
     * invalid once retired, and it counts the connections it opened and those closed.
     */
    private static final class RetiringFactory implements ConnectionFactory, Wrapped<ConnectionFactory> {

        private final ConnectionFactory driver;
        private final AtomicInteger opened = new AtomicInteger();
        private final AtomicInteger closed = new AtomicInteger();
        private final AtomicInteger retiredUpTo = new AtomicInteger();

        RetiringFactory(ConnectionFactory driver) {
            this.driver = driver;
        }

        int opened() {
            return opened.get();
        }

        int closed() {
            return closed.get();
        }

        void retireAllOpened() {
            retiredUpTo.set(opened.get());
        }

        @Override
        public Publisher<io.r2dbc.spi.Connection> create() {
            return Mono.from(driver.create()).map(connection -> wrap(connection, opened.incrementAndGet()));
        }

        private io.r2dbc.spi.Connection wrap(io.r2dbc.spi.Connection connection, int number) {
            return (io.r2dbc.spi.Connection) Proxy.newProxyInstance(WorkNotificationsIT.class.getClassLoader(),
                    new Class<?>[] {io.r2dbc.spi.Connection.class, Wrapped.class}, (self, method, args) -> {
                        switch (method.getName()) {
                            case "validate":
                                if (number <= retiredUpTo.get()) {
                                    return Mono.just(false);
                                }
                                break;
                            case "unwrap":
                                return connection;
                            case "close":
                                return Mono.from(connection.close()).doOnTerminate(closed::incrementAndGet);
                            default:
                                break;
                        }
                        return NotifyingRightAfterListen.invoke(connection, method, args);
                    });
        }

        @Override
        public ConnectionFactoryMetadata getMetadata() {
            return driver.getMetadata();
        }

        @Override
        public ConnectionFactory unwrap() {
            return driver;
        }
    }

    /**
     * Runs {@code select pg_notify(<the channel>, 'outbox')} on the listening connection right after its LISTEN,
     * within the same execution: PostgreSQL sends a session its own notification before it reports the session
     * ready again, so the notification reaches the driver before the LISTEN's execution completes.
     */
    private record NotifyingRightAfterListen(ConnectionFactory target) implements ConnectionFactory {

        @Override
        public Publisher<PostgresqlConnection> create() {
            return Mono.from(target.create()).cast(PostgresqlConnection.class).map(NotifyingRightAfterListen::wrap);
        }

        @Override
        public ConnectionFactoryMetadata getMetadata() {
            return target.getMetadata();
        }

        private static PostgresqlConnection wrap(PostgresqlConnection connection) {
            return (PostgresqlConnection) Proxy.newProxyInstance(WorkNotificationsIT.class.getClassLoader(),
                    new Class<?>[] {PostgresqlConnection.class}, (self, method, args) -> {
                        Object result = invoke(connection, method, args);
                        if (method.getName().equals("createStatement") && ((String) args[0]).startsWith("LISTEN")) {
                            return notifyingAfter(connection, (PostgresqlStatement) result);
                        }
                        return result;
                    });
        }

        private static PostgresqlStatement notifyingAfter(PostgresqlConnection connection,
                                                          PostgresqlStatement listen) {
            return (PostgresqlStatement) Proxy.newProxyInstance(WorkNotificationsIT.class.getClassLoader(),
                    new Class<?>[] {PostgresqlStatement.class}, (self, method, args) -> {
                        Object result = invoke(listen, method, args);
                        if (!method.getName().equals("execute")) {
                            return result == listen ? self : result;
                        }
                        @SuppressWarnings("unchecked")
                        Flux<PostgresqlResult> listened = (Flux<PostgresqlResult>) result;
                        return listened.concatWith(Flux.defer(() -> connection
                                .createStatement("select pg_notify('" + WorkNotifications.channel(SCHEMA)
                                        + "', 'outbox')")
                                .execute()));
                    });
        }

        private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
            try {
                return method.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }
    }
}
