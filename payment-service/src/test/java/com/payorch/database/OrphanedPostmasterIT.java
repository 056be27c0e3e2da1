package com.payorch.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OrphanedPostmasterIT {

    @TempDir
    Path tempDir;

    @Test
    void refusesToStopThePostgresOfAServiceThatIsStillRunning() throws Exception {
        Path dataDir = tempDir.resolve("postgres");
        try (EmbeddedPostgres running = EmbeddedPostgresLauncher.start(dataDir)) {
            assertThatThrownBy(() -> OrphanedPostmaster.stopIfRunning(dataDir))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("in use by another running service");
            assertThat(selectOne(running)).as("still serving").isEqualTo(1);
        }
    }

    @Test
    void startsWhenThePidFileNamesAPidNowUsedByAnotherProgram() throws Exception {
        Path dataDir = tempDir.resolve("postgres");
        EmbeddedPostgresLauncher.start(dataDir).close();
        // PostgreSQL itself would refuse to start: "lock file postmaster.pid already exists".
        Files.writeString(dataDir.resolve("postmaster.pid"), ProcessHandle.current().pid() + "\n" + dataDir + "\n");

        try (EmbeddedPostgres restarted = EmbeddedPostgresLauncher.start(dataDir)) {
            assertThat(selectOne(restarted)).isEqualTo(1);
        }
    }

    private static int selectOne(EmbeddedPostgres postgres) throws Exception {
        try (Connection connection = postgres.getPostgresDatabase().getConnection();
             Statement statement = connection.createStatement();
             ResultSet result = statement.executeQuery("select 1")) {
            result.next();
            return result.getInt(1);
        }
    }
}
