package com.payorch.chaos.world;

import com.payorch.testsupport.PostgresNode;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import io.zonky.test.db.postgres.util.LinuxUtils;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * PostgreSQL from the embedded binaries (zonky), as a process of its own on a fixed port and data directory, that
 * can be shut down the hard way ({@code pg_ctl -m immediate}: every backend dies at once, no checkpoint, the next
 * start replays the WAL, as after a crash) and started again. zonky prepares the binaries and the cluster (initdb);
 * from then on {@code pg_ctl} runs it. {@code synchronous_commit} stays on (zonky turns it off): an acknowledged
 * commit must survive the immediate shutdown; fsync is off (the machine does not crash, only PostgreSQL does).
 */
public final class PostgresProcess implements DatabaseServer {

    private final Path bin;
    private final Path dataDir;
    private final Path log;
    private final int port;
    private volatile boolean running;

    private PostgresProcess(Path bin, Path dataDir, Path log, int port) {
        this.bin = bin;
        this.dataDir = dataDir;
        this.log = log;
        this.port = port;
    }

    /** Initialises a fresh cluster in {@code dataDir} and starts it on {@code port}. */
    public static PostgresProcess start(Path dataDir, Path log, int port) {
        try {
            Files.createDirectories(dataDir);
            EmbeddedPostgres prepared = EmbeddedPostgres.builder().setDataDirectory(dataDir)
                    .setCleanDataDirectory(false).setPort(port).start();
            Path bin = binDirectory(prepared);
            prepared.close(); // a fast shutdown; the cluster stays, pg_ctl runs it from now on
            Files.deleteIfExists(dataDir.resolve("epg-lock"));
            PostgresProcess postgres = new PostgresProcess(bin, dataDir, log, port);
            postgres.startServer();
            return postgres;
        } catch (IOException e) {
            throw new UncheckedIOException("Could not prepare the campaign's PostgreSQL", e);
        }
    }

    private static Path binDirectory(EmbeddedPostgres postgres) {
        try {
            Field pgDir = EmbeddedPostgres.class.getDeclaredField("pgDir");
            pgDir.setAccessible(true);
            return ((File) pgDir.get(postgres)).toPath().resolve("bin");
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("zonky's binary directory is not where it used to be", e);
        }
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Direct JDBC URL (no proxy): for the nemesis's pg_terminate_backend and the checker. */
    @Override
    public String jdbcUrl() {
        return "jdbc:postgresql://localhost:" + port + "/postgres";
    }

    @Override
    public Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl(), "postgres", "");
    }

    /** Starts the server (after {@link #immediateShutdown()}); returns when it accepts connections. */
    @Override
    public synchronized void startServer() {
        pgCtl(List.of("-D", dataDir.toString(), "-l", log.toString(), "-w", "-t", "120", "-o",
                String.join(" ", options()), "start"));
        running = true;
    }

    /** {@code pg_ctl stop -m immediate}: the postmaster and every backend quit at once, like a crash. */
    @Override
    public synchronized void immediateShutdown() {
        running = false;
        pgCtl(List.of("-D", dataDir.toString(), "-m", "immediate", "-w", "-t", "60", "stop"));
    }

    /** The postmaster's process id from {@code postmaster.pid}, if it is running. */
    public Optional<Long> postmasterPid() {
        return PostgresNode.postmasterPid(dataDir);
    }

    private List<String> options() {
        return List.of("-p " + port, "-F", "-c listen_addresses=localhost", "-c max_connections=300",
                "-c timezone=UTC", "-c synchronous_commit=on");
    }

    private void pgCtl(List<String> arguments) {
        List<String> command = new ArrayList<>();
        if (LinuxUtils.isUnshareAvailable()) {
            // as zonky does: PostgreSQL refuses to run as root, in a user namespace of its own it is not root
            command.addAll(List.of("unshare", "-U"));
        }
        command.add(bin.resolve("pg_ctl").toString());
        command.addAll(arguments);
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
            if (!process.waitFor(180, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("pg_ctl " + arguments + " did not finish");
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException("pg_ctl " + arguments.get(arguments.size() - 1) + " failed (exit "
                        + process.exitValue() + "), see " + log);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A fast shutdown if it runs (an immediate one if that fails); the data directory stays for a look. */
    @Override
    public synchronized void close() {
        if (postmasterPid().isEmpty()) {
            return;
        }
        try {
            pgCtl(List.of("-D", dataDir.toString(), "-m", "fast", "-w", "-t", "30", "stop"));
        } catch (RuntimeException e) {
            try {
                pgCtl(List.of("-D", dataDir.toString(), "-m", "immediate", "-w", "-t", "30", "stop"));
            } catch (RuntimeException ignored) {
                // nothing more to do
            }
        }
        running = false;
    }
}
