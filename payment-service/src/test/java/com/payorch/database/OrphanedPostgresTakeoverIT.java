package com.payorch.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.payorch.testsupport.TestQueries;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.r2dbc.autoconfigure.R2dbcAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * A service JVM killed with SIGKILL leaves its PostgreSQL running on the data directory (zonky's pg_ctl detaches
 * it). The next start must stop that PostgreSQL, start its own on the same data and lose nothing committed.
 */
class OrphanedPostgresTakeoverIT {

    private static final Duration CHILD_JVM_START = Duration.ofSeconds(120);

    @TempDir
    Path tempDir;

    private Process serviceJvm;
    private ProcessHandle leftBehindPostmaster;

    @Test
    void stopsThePostgresLeftRunningByAKilledJvmAndKeepsItsData() throws Exception {
        Path dataDir = tempDir.resolve("postgres");
        ProcessHandle postmaster = startServiceJvmThenKillIt(dataDir);
        assertThat(postmaster.isAlive()).as("PostgreSQL outlives the killed JVM").isTrue();

        runnerOn(dataDir).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(postmaster.isAlive()).as("the old PostgreSQL was stopped").isFalse();
            assertThat(currentPostmasterPid(dataDir)).isNotEqualTo(postmaster.pid());
            assertThat(TestQueries.of(context).text("select note from acknowledged where id = 1"))
                    .isEqualTo(ServiceJvmLeavingPostgresBehind.NOTE);
        });
    }

    @Test
    void recoversWhenPostgresWasKilledTooAndItsPidFileIsStale() throws Exception {
        Path dataDir = tempDir.resolve("postgres");
        ProcessHandle postmaster = startServiceJvmThenKillIt(dataDir);
        List<ProcessHandle> postgresChildren = postmaster.descendants().toList();
        postmaster.destroyForcibly();
        await().atMost(Duration.ofSeconds(30)).until(() -> !postmaster.isAlive()
                && postgresChildren.stream().noneMatch(ProcessHandle::isAlive));
        assertThat(dataDir.resolve("postmaster.pid")).as("stale pid file").exists();

        runnerOn(dataDir).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(TestQueries.of(context).text("select note from acknowledged where id = 1"))
                    .as("committed row survives via WAL replay")
                    .isEqualTo(ServiceJvmLeavingPostgresBehind.NOTE);
        });
    }

    @AfterEach
    void stopLeftovers() throws Exception {
        if (serviceJvm != null) {
            serviceJvm.destroyForcibly();
        }
        if (leftBehindPostmaster != null && leftBehindPostmaster.isAlive()) {
            new ProcessBuilder("kill", "-INT", Long.toString(leftBehindPostmaster.pid())).start()
                    .waitFor(10, TimeUnit.SECONDS);
            leftBehindPostmaster.onExit().get(60, TimeUnit.SECONDS);
        }
    }

    private ApplicationContextRunner runnerOn(Path dataDir) {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(EmbeddedDatabaseAutoConfiguration.class,
                        R2dbcAutoConfiguration.class))
                .withPropertyValues("payments.db.data-dir=" + dataDir);
    }

    private ProcessHandle startServiceJvmThenKillIt(Path dataDir) throws Exception {
        Path log = tempDir.resolve("service-jvm.log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        serviceJvm = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                ServiceJvmLeavingPostgresBehind.class.getName(), dataDir.toString())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        await().atMost(CHILD_JVM_START)
                .until(() -> Files.readString(log).contains(ServiceJvmLeavingPostgresBehind.READY)
                        || !serviceJvm.isAlive());
        assertThat(serviceJvm.isAlive()).as("service JVM output:%n%s", Files.readString(log)).isTrue();

        serviceJvm.destroyForcibly(); // SIGKILL: no shutdown hooks run, so zonky never stops its PostgreSQL
        serviceJvm.onExit().get(30, TimeUnit.SECONDS);

        leftBehindPostmaster = ProcessHandle.of(currentPostmasterPid(dataDir)).orElseThrow();
        return leftBehindPostmaster;
    }

    private static long currentPostmasterPid(Path dataDir) throws Exception {
        return Long.parseLong(Files.readAllLines(dataDir.resolve("postmaster.pid")).get(0).trim());
    }
}
