package com.payorch.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.payorch.testsupport.TestDatabase;
import io.r2dbc.postgresql.api.PostgresqlConnection;
import io.r2dbc.postgresql.api.PostgresqlResult;
import io.r2dbc.postgresql.api.PostgresqlStatement;
import io.r2dbc.spi.ConnectionFactories;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.ConnectionFactoryMetadata;
import io.r2dbc.spi.ConnectionFactoryOptions;
import io.r2dbc.spi.Option;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Publisher;
import org.springframework.beans.factory.support.StaticListableBeanFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A notification sent the moment the LISTEN has taken effect, before the LISTEN's own answer reaches the listener,
 * is not lost: {@link WorkNotifications} subscribes to the connection's notifications before it sends the LISTEN.
 * The driver hands each notification to the subscribers present when it arrives and keeps none for later ones.
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
