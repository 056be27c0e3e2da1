package com.payorch.web;

import io.r2dbc.spi.R2dbcException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Reads what a database failure means for the client, anywhere in an exception's cause chain (Spring wraps the
 * driver's exceptions, often twice: {@code CannotCreateTransactionException} → {@code PostgresConnectionException}
 * → the server's error).
 *
 * <p>Where the chain carries a SQLSTATE, the SQLSTATE decides: r2dbc-postgresql reports most server errors as a
 * non-transient-resource or a bad-grammar exception, whatever they mean, so the exception's type says little.
 */
public final class DatabaseErrors {

    /**
     * SQLSTATEs of text PostgreSQL cannot store: 22021 character_not_in_repertoire (r2dbc-postgresql reports U+0000
     * as {@code [22021] invalid byte sequence for encoding "UTF8": 0x00}), 22P05 untranslatable_character
     * (PostgreSQL's "backslash-u0000 cannot be converted to text", from a JSON value).
     */
    private static final Set<String> BAD_CHARACTER_STATES = Set.of("22021", "22P05");

    private DatabaseErrors() {
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
