package com.payorch.database;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Starts zonky's PostgreSQL on a persistent data directory with durable settings. */
final class EmbeddedPostgresLauncher {

    static final String DATABASE = "payments";
    static final String USER = "postgres";

    private static final Logger log = LoggerFactory.getLogger(EmbeddedPostgresLauncher.class);
    // After a crash PostgreSQL replays WAL before accepting connections: zonky's 10 s default can be too short.
    private static final Duration STARTUP_WAIT = Duration.ofSeconds(60);

    private EmbeddedPostgresLauncher() {
    }

    static EmbeddedPostgres start(Path dataDir) throws IOException {
        Files.createDirectories(dataDir);
        OrphanedPostmaster.stopIfRunning(dataDir);
        EmbeddedPostgres postgres = EmbeddedPostgres.builder()
                .setDataDirectory(dataDir)
                .setCleanDataDirectory(false)
                // Spring closes the bean after the connection pool; zonky's own JVM hook would race with that.
                .setRegisterShutdownHook(false)
                .setPGStartupWait(STARTUP_WAIT)
                // zonky turns these off (and passes -F); an acknowledged payment must be on disk.
                .setServerConfig("fsync", "on")
                .setServerConfig("synchronous_commit", "on")
                .setServerConfig("full_page_writes", "on")
                .start();
        try {
            createDatabaseIfMissing(postgres);
        } catch (SQLException | RuntimeException e) {
            postgres.close();
            throw new IOException("Could not prepare database '" + DATABASE + "' in embedded PostgreSQL", e);
        }
        log.info("Embedded PostgreSQL: data in {}, listening on localhost:{} (database '{}', user '{}')",
                dataDir, postgres.getPort(), DATABASE, USER);
        return postgres;
    }

    private static void createDatabaseIfMissing(EmbeddedPostgres postgres) throws SQLException {
        try (Connection connection = postgres.getPostgresDatabase().getConnection();
             Statement statement = connection.createStatement()) {
            try (ResultSet existing = statement.executeQuery(
                    "select 1 from pg_database where datname = '" + DATABASE + "'")) {
                if (existing.next()) {
                    return;
                }
            }
            statement.execute("create database " + DATABASE);
        }
    }
}
