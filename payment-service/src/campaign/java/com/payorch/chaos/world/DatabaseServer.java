package com.payorch.chaos.world;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Random;

/**
 * The campaign's PostgreSQL as the nemesis and the checker see it: one server ({@link PostgresProcess}) or a primary
 * with a synchronous standby ({@link PrimaryOfPostgresPair}), where every call is about the server that is primary
 * now.
 */
public interface DatabaseServer extends AutoCloseable {

    /** The port of the server that is primary now. */
    int port();

    boolean isRunning();

    /** Direct JDBC URL (no proxy) of the server that is primary now: for the nemesis and the checker. */
    String jdbcUrl();

    Connection connect() throws SQLException;

    /** Starts the (primary) server again after {@link #immediateShutdown()}; returns when it accepts connections. */
    void startServer();

    /** {@code pg_ctl stop -m immediate} of the (primary) server: every backend quits at once, like a crash. */
    void immediateShutdown();

    /** Terminates up to {@code count} random client backends of the primary; the process ids it ended. */
    default List<Integer> terminateRandomBackends(int count, Random random) throws SQLException {
        try (Connection connection = connect()) {
            return Backends.terminateRandom(connection, count, random);
        }
    }

    @Override
    void close();
}
