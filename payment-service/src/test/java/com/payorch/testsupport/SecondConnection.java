package com.payorch.testsupport;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * A plain JDBC connection to the test database, beside the service's own pool: for holding row locks and for
 * terminating the service's backends from outside, as an operator or a failing server would.
 */
public final class SecondConnection implements AutoCloseable {

    private final Connection connection;

    public SecondConnection() throws SQLException {
        TestDatabase database = TestDatabase.get();
        connection = DriverManager.getConnection(database.jdbcUrl(), database.username(), database.password());
        connection.setAutoCommit(false);
    }

    /** Locks the rows `sql` selects (a `... for update` query) until {@link #rollback()}. */
    public void lock(String sql, String parameter) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setString(1, parameter);
            statement.executeQuery().close();
        }
    }

    /** The backend that waits on a lock while running a statement containing `queryFragment`, or -1. */
    public int backendWaitingOnLock(String queryFragment) throws SQLException {
        clearStatisticsSnapshot();
        try (PreparedStatement statement = connection.prepareStatement("""
                select pid from pg_stat_activity
                where wait_event_type = 'Lock' and pid <> pg_backend_pid() and query ilike ?""")) {
            statement.setString(1, "%" + queryFragment + "%");
            try (ResultSet rows = statement.executeQuery()) {
                return rows.next() ? rows.getInt(1) : -1;
            }
        }
    }

    // pg_stat_activity is read once per transaction and kept until its end; this connection's transaction is long.
    private void clearStatisticsSnapshot() throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("select pg_stat_clear_snapshot()")) {
            statement.executeQuery().close();
        }
    }

    public void terminate(int pid) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("select pg_terminate_backend(?)")) {
            statement.setInt(1, pid);
            statement.executeQuery().close();
        }
    }

    /** Runs one statement (e.g. an insert, or `lock table`) in this connection's transaction. */
    public void execute(String sql, Object... parameters) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            statement.execute();
        }
    }

    /** Terminates every backend connected with this `application_name`; answers how many there were. */
    public int terminateAll(String applicationName) throws SQLException {
        clearStatisticsSnapshot();
        try (PreparedStatement statement = connection.prepareStatement("""
                select count(pg_terminate_backend(pid)) from pg_stat_activity
                where application_name = ? and pid <> pg_backend_pid()""")) {
            statement.setString(1, applicationName);
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getInt(1);
            }
        }
    }

    public void rollback() throws SQLException {
        connection.rollback();
    }

    @Override
    public void close() throws SQLException {
        connection.rollback();
        connection.close();
    }
}
