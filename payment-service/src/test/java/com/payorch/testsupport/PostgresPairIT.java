package com.payorch.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A primary and synchronous standby of Debian's PostgreSQL (issue 26), as real processes: a commit waits for the
 * standby; two failovers there and back lose no committed row; after each the old primary is the new one's
 * synchronous standby again. Skipped where {@code postgresql-15} is not installed (.ci/run installs it).
 */
class PostgresPairIT {

    private Path dir;
    private PostgresPair pair;

    @BeforeEach
    void start() throws Exception {
        Assumptions.assumeTrue(PostgresPair.isAvailable(), "Debian's postgresql-15 is not installed");
        // under target/, not /tmp: the user postgres must be able to reach the data directories
        dir = Files.createDirectories(Path.of("target", "postgres-pair-it", UUID.randomUUID().toString()))
                .toAbsolutePath();
        pair = PostgresPair.start(dir, PostgresPair.freePort(), PostgresPair.freePort());
    }

    @AfterEach
    void stop() {
        if (pair != null) {
            pair.close();
        }
        if (dir != null) {
            org.springframework.util.FileSystemUtils.deleteRecursively(dir.toFile());
        }
    }

    @Test
    void twoFailoversThereAndBackLoseNoCommittedRowAndTheStandbyIsSynchronousAgainAfterEach() throws Exception {
        assertThat(pair.primaryName()).isEqualTo("pg-a");
        assertThat(syncStates()).containsExactly("streaming/sync");
        execute("create table acknowledged (id int primary key)");
        execute("insert into acknowledged values (1)");

        PostgresPair.Failover first = pair.failover();

        assertThat(first.from()).isEqualTo("pg-a");
        assertThat(first.to()).isEqualTo("pg-b");
        assertThat(pair.primaryName()).isEqualTo("pg-b");
        assertThat(pair.hasSynchronousStandby()).isFalse();
        execute("insert into acknowledged values (2)"); // no standby to wait for: commits go on
        assertThat(pair.rebuildStandby()).startsWith("pg_rewind of pg-a from pg-b; synchronous standby again");
        assertThat(syncStates()).containsExactly("streaming/sync");
        execute("insert into acknowledged values (3)");

        PostgresPair.Failover second = pair.failover();

        assertThat(second.to()).isEqualTo("pg-a");
        assertThat(ids()).containsExactly(1, 2, 3);
        assertThat(pair.rebuildStandby()).startsWith("pg_rewind of pg-b from pg-a");
        assertThat(syncStates()).containsExactly("streaming/sync");
        assertThat(pair.failovers()).hasSize(2).allSatisfy(failover -> {
            assertThat(failover.promotedAtMillis()).isGreaterThanOrEqualTo(failover.killedAtMillis());
            assertThat(failover.standbyAgainAtMillis()).isGreaterThanOrEqualTo(failover.promotedAtMillis());
            assertThat(failover.rebuiltBy()).isEqualTo("pg_rewind");
        });
    }

    @Test
    void aCommitIsAcknowledgedOnlyOnceTheStandbyHasIt() throws Exception {
        execute("create table acknowledged (id int primary key)");
        PostgresNode standby = pair.second();
        standby.immediateStop();

        CompletableFuture<Void> commit = CompletableFuture.runAsync(() -> {
            try {
                execute("insert into acknowledged values (1)");
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        });

        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).until(() -> !commit.isDone());
        standby.start();
        await().atMost(Duration.ofSeconds(30)).until(commit::isDone);
        assertThat(commit).isCompleted();
        assertThat(ids()).containsExactly(1);
    }

    private void execute(String sql) throws SQLException {
        try (Connection connection = pair.connect(); var statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private List<Integer> ids() throws SQLException {
        List<Integer> ids = new ArrayList<>();
        try (Connection connection = pair.connect(); var statement = connection.createStatement();
             var rows = statement.executeQuery("select id from acknowledged order by id")) {
            while (rows.next()) {
                ids.add(rows.getInt(1));
            }
        }
        return ids;
    }

    private List<String> syncStates() throws SQLException {
        List<String> states = new ArrayList<>();
        try (Connection connection = pair.connect(); var statement = connection.createStatement();
             var rows = statement.executeQuery("select state || '/' || sync_state from pg_stat_replication")) {
            while (rows.next()) {
                states.add(rows.getString(1));
            }
        }
        return states;
    }
}
