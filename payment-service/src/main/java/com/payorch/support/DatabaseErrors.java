package com.payorch.support;

import io.r2dbc.pool.ConnectionPoolException;
import io.r2dbc.spi.R2dbcException;
import io.r2dbc.spi.R2dbcNonTransientResourceException;
import io.r2dbc.spi.R2dbcTimeoutException;
import io.r2dbc.spi.R2dbcTransientResourceException;
import java.net.ConnectException;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.dao.TransientDataAccessResourceException;
import org.springframework.transaction.CannotCreateTransactionException;

/**
 * Reads what a database failure means for the client, anywhere in an exception's cause chain (Spring wraps the
 * driver's exceptions, often twice: {@code CannotCreateTransactionException} → {@code PostgresConnectionException}
 * → the server's error).
 *
 * <p>Where the chain carries a SQLSTATE, the SQLSTATE decides: r2dbc-postgresql reports most server errors as an
 * {@link R2dbcNonTransientResourceException} (which Spring turns into a {@link DataAccessResourceFailureException})
 * or a bad-grammar exception, whatever they mean, so the exception's type says little. Without a SQLSTATE (the
 * connection could not be opened, was closed, or timed out on the client side) the type decides.
 */
public final class DatabaseErrors {

    /** read_only_sql_transaction: "cannot execute INSERT in a read-only transaction". */
    public static final String READ_ONLY_SQL_TRANSACTION = "25006";

    /**
     * SQLSTATEs of a database that cannot serve now: class 08 (connection exception), class 53 (insufficient
     * resources, e.g. 53300 too many connections), class 57 (operator intervention: 57P01 admin shutdown, 57P02
     * crash shutdown, 57P03 "the database system is starting up", 57014 statement timeout), 55P03 (lock timeout),
     * 58030 (I/O error), and {@value #READ_ONLY_SQL_TRANSACTION} (the server takes no writes: a primary demoted or
     * fenced during a failover, or a standby).
     */
    private static final Set<String> UNAVAILABLE_CLASSES = Set.of("08", "53", "57");
    private static final Set<String> UNAVAILABLE_STATES = Set.of("55P03", "58030", READ_ONLY_SQL_TRANSACTION);

    /**
     * SQLSTATEs of text PostgreSQL cannot store: 22021 character_not_in_repertoire (r2dbc-postgresql reports U+0000
     * as {@code [22021] invalid byte sequence for encoding "UTF8": 0x00}), 22P05 untranslatable_character
     * (PostgreSQL's "backslash-u0000 cannot be converted to text", from a JSON value).
     */
    private static final Set<String> BAD_CHARACTER_STATES = Set.of("22021", "22P05");

    private DatabaseErrors() {
    }

    /** The database cannot be reached or cannot serve right now: worth a 503 and a retry, not a 500. */
    public static boolean isUnavailable(Throwable error) {
        String sqlState = sqlState(error);
        if (sqlState != null) {
            return UNAVAILABLE_CLASSES.contains(sqlState.substring(0, 2)) || UNAVAILABLE_STATES.contains(sqlState);
        }
        for (Throwable cause : chain(error)) {
            if (cause instanceof CannotCreateTransactionException
                    || cause instanceof DataAccessResourceFailureException
                    || cause instanceof TransientDataAccessResourceException
                    || cause instanceof QueryTimeoutException
                    || cause instanceof R2dbcNonTransientResourceException
                    || cause instanceof R2dbcTransientResourceException
                    || cause instanceof R2dbcTimeoutException
                    || cause instanceof ConnectionPoolException
                    || cause instanceof ConnectException // includes Netty's ConnectTimeoutException
                    || cause instanceof ClosedChannelException) {
                return true;
            }
        }
        return false;
    }

    /**
     * The server refused a write because it is read-only now (a demoted or fenced primary, a standby): every
     * connection to it is useless for this service, whose requests write.
     */
    public static boolean isServerReadOnly(Throwable error) {
        return READ_ONLY_SQL_TRANSACTION.equals(sqlState(error));
    }

    /** The database refused a character of the request's text (U+0000, or not valid in UTF-8): the client's fault. */
    public static boolean isBadCharacter(Throwable error) {
        String sqlState = sqlState(error);
        if (sqlState != null && BAD_CHARACTER_STATES.contains(sqlState)) {
            return true;
        }
        for (Throwable cause : chain(error)) {
            String message = cause.getMessage() == null ? "" : cause.getMessage().toLowerCase(Locale.ROOT);
            if (message.contains("invalid byte sequence for encoding")
                    || message.contains("cannot be converted to text")
                    || message.contains("character with byte sequence")) {
                return true;
            }
        }
        return false;
    }

    /** The first SQLSTATE in the chain, or null when no exception in it carries one. */
    static String sqlState(Throwable error) {
        for (Throwable cause : chain(error)) {
            if (cause instanceof R2dbcException r2dbc && r2dbc.getSqlState() != null
                    && r2dbc.getSqlState().length() == 5) {
                return r2dbc.getSqlState().toUpperCase(Locale.ROOT);
            }
        }
        return null;
    }

    /** The exception and its causes, each once (a cause chain may loop). */
    static List<Throwable> chain(Throwable error) {
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        List<Throwable> chain = new ArrayList<>();
        for (Throwable t = error; t != null && seen.add(t); t = t.getCause()) {
            chain.add(t);
        }
        return chain;
    }

    /** One line for a log: the innermost cause's type and message, no stack trace. */
    public static String summary(Throwable error) {
        List<Throwable> chain = chain(error);
        Throwable root = chain.get(chain.size() - 1);
        String state = sqlState(error);
        return root.getClass().getName() + ": " + root.getMessage() + (state == null ? "" : " (SQLSTATE " + state + ")");
    }
}
