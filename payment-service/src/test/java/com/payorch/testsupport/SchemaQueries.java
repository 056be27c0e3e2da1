package com.payorch.testsupport;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Plain JDBC queries on the test database in one schema, for tests whose service runs in another JVM (no Spring
 * context in the test to borrow a connection from). Each call is its own connection.
 */
public final class SchemaQueries {

    private final String schema;

    public SchemaQueries(String schema) {
        this.schema = schema;
    }

    /** The first column of the first row of a query with {@code ?} parameters, as a long. */
    public long count(String sql, Object... args) {
        try (Connection connection = connect(); PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                statement.setObject(i + 1, args[i]);
            }
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** An open connection with the schema as search path; the caller closes it. */
    public Connection connect() throws SQLException {
        TestDatabase database = TestDatabase.get();
        Connection connection = DriverManager.getConnection(database.jdbcUrl(), database.username(),
                database.password());
        try (Statement statement = connection.createStatement()) {
            statement.execute("set search_path to " + schema);
        }
        return connection;
    }
}
