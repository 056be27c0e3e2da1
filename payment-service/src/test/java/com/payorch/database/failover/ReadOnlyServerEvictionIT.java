package com.payorch.database.failover;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.support.DatabaseErrors;
import com.payorch.testsupport.TestDatabase;
import io.r2dbc.pool.ConnectionPool;
import io.r2dbc.pool.ConnectionPoolConfiguration;
import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactories;
import io.r2dbc.spi.ConnectionFactoryOptions;
import java.time.Duration;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The pool over the decorated driver factory, as Boot builds it, on the test database: a session made read-only
 * stands for a server a failover demoted (the refusal, SQLSTATE 25006, is the same). The connection that met the
 * refusal and every one opened before it are replaced on their next hand-out; the ones opened after are kept.
 */
class ReadOnlyServerEvictionIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private ConnectionPool pool;

    @AfterEach
    void closePool() {
        if (pool != null) {
            pool.dispose();
        }
    }

    @Test
    void aWriteRefusedAsReadOnlyReplacesTheConnectionThatMetIt() {
        pool = pool(1, 1);
        int first = pooledBackendPid();
        assertThat(pooledBackendPid()).as("the pool keeps its connection").isEqualTo(first);

        Throwable refusal = withConnection(connection -> makeReadOnly(connection).then(refusalOfAWrite(connection)));
        assertThat(DatabaseErrors.isServerReadOnly(refusal)).as(String.valueOf(refusal)).isTrue();

        int next = pooledBackendPid();
        assertThat(next).as("a new connection, on a new backend").isNotEqualTo(first);
        assertThat(pooledBackendPid()).as("which the pool keeps in turn").isEqualTo(next);
        String readOnly = withConnection(connection -> text(connection, "show transaction_read_only"));
        assertThat(readOnly).isEqualTo("off");
    }

    @Test
    void theConnectionsOpenedBeforeTheRefusalAreReplacedTooAndTheOnesOpenedAfterAreNot() {
        // Boot's default is one retry: an acquire that meets two retired connections drops both and fails (a 503).
        pool = pool(2, 2);
        Connection refused = acquire();
        Connection bystander = acquire();
        int refusedPid = backendPid(refused);
        int bystanderPid = backendPid(bystander);
        Throwable refusal = makeReadOnly(refused).then(refusalOfAWrite(refused)).block(TIMEOUT);
        assertThat(DatabaseErrors.isServerReadOnly(refusal)).as(String.valueOf(refusal)).isTrue();
        release(refused);
        release(bystander);

        Connection afterA = acquire();
        Connection afterB = acquire();
        int afterAPid = backendPid(afterA);
        int afterBPid = backendPid(afterB);
        assertThat(afterAPid).isNotIn(refusedPid, bystanderPid);
        assertThat(afterBPid).isNotIn(refusedPid, bystanderPid);
        release(afterA);
        release(afterB);

        Connection again = acquire();
        assertThat(backendPid(again)).isIn(afterAPid, afterBPid);
        release(again);
    }

    private static ConnectionPool pool(int size, int acquireRetries) {
        TestDatabase database = TestDatabase.get();
        ConnectionFactoryOptions options = ConnectionFactoryOptions.parse(database.r2dbcUrl()).mutate()
                .option(ConnectionFactoryOptions.USER, database.username())
                .option(ConnectionFactoryOptions.PASSWORD, database.password())
                .build();
        return new ConnectionPool(ConnectionPoolConfiguration
                .builder(new ReadOnlyServerEviction().decorate(ConnectionFactories.get(options)))
                .initialSize(0)
                .maxSize(size)
                .acquireRetry(acquireRetries)
                .build());
    }

    private static Mono<Void> makeReadOnly(Connection connection) {
        return Flux.from(connection.createStatement("set default_transaction_read_only = on").execute())
                .flatMap(result -> result.getRowsUpdated())
                .then();
    }

    /** The error a write ends in, empty if it succeeds (a read-only session refuses it: nothing is created). */
    private static Mono<Throwable> refusalOfAWrite(Connection connection) {
        return Flux.from(connection.createStatement("create table read_only_probe (id int)").execute())
                .flatMap(result -> result.getRowsUpdated())
                .then(Mono.<Throwable>empty())
                .onErrorResume(Mono::just);
    }

    private <T> T withConnection(Function<Connection, Mono<T>> work) {
        return Mono.usingWhen(pool.create(), work, Connection::close).block(TIMEOUT);
    }

    private Connection acquire() {
        return pool.create().block(TIMEOUT);
    }

    private static void release(Connection connection) {
        Mono.from(connection.close()).block(TIMEOUT);
    }

    private int pooledBackendPid() {
        return withConnection(ReadOnlyServerEvictionIT::backendPidOf);
    }

    private static int backendPid(Connection connection) {
        return backendPidOf(connection).block(TIMEOUT);
    }

    private static Mono<Integer> backendPidOf(Connection connection) {
        return Flux.from(connection.createStatement("select pg_backend_pid()").execute())
                .flatMap(result -> result.map((row, meta) -> row.get(0, Integer.class)))
                .single();
    }

    private static Mono<String> text(Connection connection, String sql) {
        return Flux.from(connection.createStatement(sql).execute())
                .flatMap(result -> result.map((row, meta) -> row.get(0, String.class)))
                .single();
    }
}
