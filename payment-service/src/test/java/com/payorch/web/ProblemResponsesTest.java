package com.payorch.web;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.netty.channel.ConnectTimeoutException;
import io.r2dbc.postgresql.api.ErrorDetails;
import io.r2dbc.spi.R2dbcException;
import io.r2dbc.spi.R2dbcNonTransientResourceException;
import io.r2dbc.spi.R2dbcTimeoutException;
import io.r2dbc.spi.R2dbcTransientResourceException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.net.ConnectException;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.r2dbc.BadSqlGrammarException;
import org.springframework.r2dbc.UncategorizedR2dbcException;
import org.springframework.transaction.CannotCreateTransactionException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Exception chains as the driver, the pool and Spring build them, and the problem each must become: every
 * "database not reachable" cause anywhere in the chain is 503 {@code service_unavailable} with {@code Retry-After},
 * logged as one WARN line without a stack trace; text the database cannot store is 400; anything else is 500.
 */
class ProblemResponsesTest {

    record Chain(String name, Throwable error, ProblemCode expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Chain> chains() {
        return Stream.of(
                unavailable("57P03 starting up, behind CannotCreateTransactionException",
                        new CannotCreateTransactionException("Could not open R2DBC Connection for transaction",
                                connectionException("Cannot connect to localhost/127.0.0.1:5432",
                                        server("57P03", "the database system is starting up")))),
                unavailable("connection closed, behind CannotCreateTransactionException",
                        new CannotCreateTransactionException("Could not open R2DBC Connection for transaction",
                                connectionClosed())),
                unavailable("connection refused, behind CannotCreateTransactionException",
                        new CannotCreateTransactionException("Could not open R2DBC Connection for transaction",
                                connectionException("Cannot connect to localhost/127.0.0.1:5432",
                                        new ConnectException("Connection refused")))),
                unavailable("CannotCreateTransactionException alone",
                        new CannotCreateTransactionException("Could not open R2DBC Connection for transaction")),
                unavailable("connection closed mid-statement, translated by Spring",
                        new DataAccessResourceFailureException("executeMany; SQL [select 1]", connectionClosed())),
                unavailable("connection closed, bare", connectionClosed()),
                unavailable("57P01 admin shutdown (pg_terminate_backend)",
                        server("57P01", "terminating connection due to administrator command")),
                unavailable("57P02 crash shutdown", server("57P02", "terminating connection because of crash")),
                unavailable("08006 connection failure, uncategorized by Spring",
                        new UncategorizedR2dbcException("execute", "select 1",
                                new R2dbcException("connection failure", "08006") { })),
                unavailable("53300 too many connections", server("53300", "sorry, too many clients already")),
                unavailable("transient resource exception without SQLSTATE",
                        new R2dbcTransientResourceException("Request queue is full")),
                unavailable("non-transient resource exception without SQLSTATE",
                        new R2dbcNonTransientResourceException("Connection reset")),
                unavailable("connect timeout deep in a wrapper",
                        new IllegalStateException("wrapped", new RuntimeException(
                                new ConnectTimeoutException("connection timed out: localhost/127.0.0.1:5432")))),
                unavailable("pool acquire timeout",
                        new R2dbcTimeoutException("Connection acquisition timed out after 5000ms",
                                new TimeoutException("Did not observe any item"))),
                new Chain("22021 U+0000, as a bad-grammar exception Spring translated",
                        new BadSqlGrammarException("execute", "insert ...", (io.r2dbc.spi.R2dbcBadGrammarException)
                                server("22021", "invalid byte sequence for encoding \"UTF8\": 0x00")),
                        ProblemCode.INVALID_REQUEST),
                new Chain("22P05 untranslatable character", new DataAccessResourceFailureException("execute",
                        server("22P05", "unsupported Unicode escape sequence")), ProblemCode.INVALID_REQUEST),
                new Chain("another server error reported as a resource failure (22012) is not an outage",
                        new DataAccessResourceFailureException("execute", server("22012", "division by zero")),
                        ProblemCode.INTERNAL_ERROR),
                new Chain("an unexpected exception", new IllegalStateException("boom"), ProblemCode.INTERNAL_ERROR),
                new Chain("a cause chain that loops", loop(), ProblemCode.INTERNAL_ERROR));
    }

    private ListAppender<ILoggingEvent> logged;

    @BeforeEach
    void captureLog() {
        logged = new ListAppender<>();
        logged.start();
        ((Logger) LoggerFactory.getLogger(ProblemResponses.class)).addAppender(logged);
    }

    @AfterEach
    void releaseLog() {
        ((Logger) LoggerFactory.getLogger(ProblemResponses.class)).detachAppender(logged);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("chains")
    void eachChainBecomesItsProblem(Chain chain) {
        ProblemResponses responses = new ProblemResponses(new ProblemWriter(JsonMapper.builder().build()));
        MockServerWebExchange exchange = MockServerWebExchange.from(MockServerHttpRequest.post("/v1/payments"));

        ApiProblem problem = responses.toProblem(exchange, chain.error());

        assertThat(problem.problemCode()).isEqualTo(chain.expected());
        assertThat(problem.detail()).doesNotContain("Exception").doesNotContain("SQL").doesNotContain("select");
        assertThat(logged.list).hasSize(1);
        if (chain.expected() == ProblemCode.SERVICE_UNAVAILABLE) {
            assertThat(problem.headers()).containsEntry("Retry-After", "1");
            assertThat(logged.list.get(0).getLevel()).isEqualTo(Level.WARN);
            assertThat(logged.list.get(0).getThrowableProxy()).as("no stack trace").isNull();
        } else {
            assertThat(problem.headers()).doesNotContainKey("Retry-After");
        }
    }

    private static Chain unavailable(String name, Throwable error) {
        return new Chain(name, error, ProblemCode.SERVICE_UNAVAILABLE);
    }

    /** The exception r2dbc-postgresql itself makes of a server error with this SQLSTATE. */
    private static R2dbcException server(String sqlState, String message) {
        try {
            Class<?> factory = Class.forName("io.r2dbc.postgresql.ExceptionFactory");
            Field instance = factory.getDeclaredField("INSTANCE");
            instance.setAccessible(true);
            Method create = factory.getDeclaredMethod("createException", ErrorDetails.class);
            create.setAccessible(true);
            return (R2dbcException) create.invoke(instance.get(null), ErrorDetails.fromCodeAndMessage(sqlState, message));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static R2dbcException connectionClosed() {
        return driverException("io.r2dbc.postgresql.client.ReactorNettyClient$PostgresConnectionClosedException",
                new Class<?>[] {String.class}, "Cannot exchange messages because the connection is closed");
    }

    private static R2dbcException connectionException(String message, Throwable cause) {
        return driverException("io.r2dbc.postgresql.PostgresqlConnectionFactory$PostgresConnectionException",
                new Class<?>[] {String.class, Throwable.class}, message, cause);
    }

    private static R2dbcException driverException(String className, Class<?>[] types, Object... args) {
        try {
            Constructor<?> constructor = Class.forName(className).getDeclaredConstructor(types);
            constructor.setAccessible(true);
            return (R2dbcException) constructor.newInstance(args);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Throwable loop() {
        RuntimeException outer = new RuntimeException("outer");
        RuntimeException inner = new RuntimeException("inner", outer);
        outer.initCause(inner);
        return outer;
    }
}
