package com.payorch.database;

import io.r2dbc.spi.ConnectionFactoryOptions;

import org.springframework.boot.flyway.autoconfigure.FlywayConnectionDetails;
import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.boot.r2dbc.autoconfigure.R2dbcConnectionDetails;

/**
 * Where the embedded PostgreSQL listens, for R2DBC (the application) and for Flyway. The JDBC view is needed too:
 * Flyway's auto-configuration only activates when a DataSource, {@code spring.flyway.url} or a
 * {@link JdbcConnectionDetails} bean exists.
 */
final class EmbeddedPostgresConnectionDetails
        implements R2dbcConnectionDetails, JdbcConnectionDetails, FlywayConnectionDetails {

    private final int port;

    EmbeddedPostgresConnectionDetails(int port) {
        this.port = port;
    }

    @Override
    public ConnectionFactoryOptions getConnectionFactoryOptions() {
        return ConnectionFactoryOptions.builder()
                .option(ConnectionFactoryOptions.DRIVER, "postgresql")
                .option(ConnectionFactoryOptions.HOST, "localhost")
                .option(ConnectionFactoryOptions.PORT, port)
                .option(ConnectionFactoryOptions.DATABASE, EmbeddedPostgresLauncher.DATABASE)
                .option(ConnectionFactoryOptions.USER, EmbeddedPostgresLauncher.USER)
                .build();
    }

    @Override
    public String getJdbcUrl() {
        return "jdbc:postgresql://localhost:" + port + "/" + EmbeddedPostgresLauncher.DATABASE;
    }

    @Override
    public String getUsername() {
        return EmbeddedPostgresLauncher.USER;
    }

    @Override
    public String getPassword() {
        return null; // zonky's initdb uses trust authentication
    }

    @Override
    public String getDriverClassName() {
        return "org.postgresql.Driver";
    }
}
