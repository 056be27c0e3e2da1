package com.payorch.chaos.world;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One PostgreSQL server of Debian's packages ({@code /usr/lib/postgresql/15/bin}), a process of its own on a fixed
 * port and data directory, run as the operating-system user {@code postgres} (PostgreSQL refuses to run as root; the
 * campaign runs as root, so every PostgreSQL program runs through {@code runuser}). It can be the primary or a
 * streaming standby; {@link PostgresPair} decides which. fsync is off (only PostgreSQL crashes, not the machine);
 * data checksums are on, as {@code pg_rewind} needs.
 */
final class PostgresNode implements AutoCloseable {

    static final Path BIN = Path.of("/usr/lib/postgresql/15/bin");
    private static final String OS_USER = "postgres";

    private final String name;
    private final Path dataDir;
    private final Path log;
    private final int port;
    private volatile List<ProcessHandle> killed = List.of();

    PostgresNode(String name, Path dataDir, Path log, int port) {
        this.name = name;
        this.dataDir = dataDir;
        this.log = log;
        this.port = port;
    }

    /** Whether Debian's PostgreSQL 15 and the {@code postgres} user are there (package {@code postgresql-15}). */
    static boolean available() {
        return Files.isExecutable(BIN.resolve("pg_ctl")) && Files.isExecutable(Path.of("/usr/sbin/runuser"));
    }

    String name() {
        return name;
    }

    int port() {
        return port;
    }

    String jdbcUrl() {
        return "jdbc:postgresql://localhost:" + port + "/postgres";
    }

    Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl(), "postgres", "");
    }

    /** libpq's connection string of this server, for a standby's {@code pg_rewind} or {@code pg_basebackup}. */
    String conninfo() {
        return "host=localhost port=" + port + " user=postgres dbname=postgres";
    }

    /**
     * A fresh cluster (trust authentication, replication allowed from localhost: initdb's defaults) with data
     * checksums, which {@code pg_rewind} needs. The settings go into {@code postgresql.conf}, not onto the command
     * line: {@code pg_rewind} runs a crashed server's recovery in single-user mode with the file's settings (with
     * {@code wal_keep_size} 0 it would remove the WAL it then needs), and a base backup copies the file.
     */
    void initdb() {
        emptyDataDirectory();
        run(List.of(BIN.resolve("initdb").toString(), "-D", dataDir.toString(), "-U", "postgres", "-A", "trust",
                "-E", "UTF8", "--locale=C", "--data-checksums", "--no-sync"), Duration.ofSeconds(120));
        try {
            Files.writeString(dataDir.resolve("postgresql.conf"), String.join("\n", SETTINGS) + "\n",
                    java.nio.file.StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Both servers' settings; a standby's copy comes with its base backup. */
    private static final List<String> SETTINGS = List.of(
            "# the fault campaign's (com.payorch.chaos.world.PostgresNode)",
            "listen_addresses = 'localhost'",
            // TCP only: a socket path under a deep output directory can pass the 107-byte limit
            "unix_socket_directories = ''",
            "max_connections = 300",
            "timezone = 'UTC'",
            "fsync = off",
            "synchronous_commit = on",
            "wal_keep_size = '1GB'",
            "wal_retrieve_retry_interval = '500ms'");

    /** Starts the server (a primary, or a standby when its data directory says so); returns once it accepts. */
    void start() {
        run(List.of(BIN.resolve("pg_ctl").toString(), "-D", dataDir.toString(), "-l", log.toString(), "-w",
                "-t", "120", "-o", String.join(" ", options()), "start"), Duration.ofSeconds(150));
    }

    /** {@code pg_ctl stop -m immediate}: the postmaster and every backend quit at once, no checkpoint. */
    void immediateStop() {
        run(List.of(BIN.resolve("pg_ctl").toString(), "-D", dataDir.toString(), "-m", "immediate", "-w", "-t",
                "60", "stop"), Duration.ofSeconds(90));
    }

    /** {@code kill -9} of the postmaster, as when its machine dies (its backends quit when they see it gone). */
    long kill9() {
        long pid = postmasterPid().orElseThrow(() -> new IllegalStateException(name + " is not running"));
        ProcessHandle postmaster = ProcessHandle.of(pid)
                .orElseThrow(() -> new IllegalStateException(name + "'s postmaster " + pid + " is gone"));
        killed = new ArrayList<>(postmaster.descendants().toList());
        killed.add(postmaster);
        postmaster.destroyForcibly();
        return pid;
    }

    /**
     * After {@link #kill9()}: waits until every process of the killed server is gone (a zombie counts as gone: the
     * postmaster's parent is init, which may reap it late), then removes the stale {@code postmaster.pid}, which
     * PostgreSQL would take for a live server while the zombie's pid exists.
     */
    void awaitKilled() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        for (ProcessHandle process : killed) {
            while (process.isAlive() && !isZombie(process.pid()) && System.nanoTime() < deadline) {
                synchronized (this) {
                    try {
                        wait(50); // a poll interval, nothing to be notified of
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException(e);
                    }
                }
            }
            if (process.isAlive() && !isZombie(process.pid())) {
                process.destroyForcibly();
            }
        }
        killed = List.of();
        try {
            Files.deleteIfExists(dataDir.resolve("postmaster.pid"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean isZombie(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            return stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
        } catch (IOException | RuntimeException gone) {
            return true;
        }
    }

    /** {@code pg_ctl promote}: the standby becomes a primary; returns once it accepts writes. */
    void promote() {
        run(List.of(BIN.resolve("pg_ctl").toString(), "-D", dataDir.toString(), "-w", "-t", "60", "promote"),
                Duration.ofSeconds(90));
    }

    /**
     * {@code pg_rewind} of this (stopped, possibly crashed) server's data directory to {@code primary}'s timeline,
     * configured as its standby ({@code -R}); false when it failed (a fresh base backup is then the way).
     */
    boolean rewindFrom(PostgresNode primary) {
        try {
            run(List.of(BIN.resolve("pg_rewind").toString(), "-D", dataDir.toString(), "--source-server="
                    + primary.conninfo(), "-R"), Duration.ofSeconds(120));
            return true;
        } catch (IllegalStateException failed) {
            return false;
        }
    }

    /** A fresh copy of {@code primary} ({@code pg_basebackup -R}) in place of this data directory: a standby. */
    void baseBackupFrom(PostgresNode primary) {
        emptyDataDirectory();
        run(List.of(BIN.resolve("pg_basebackup").toString(), "-d", primary.conninfo(), "-D", dataDir.toString(),
                "-R", "-X", "stream", "-c", "fast", "--no-sync"), Duration.ofSeconds(180));
    }

    /** The postmaster's process id from {@code postmaster.pid}, if the file is there. */
    Optional<Long> postmasterPid() {
        return postmasterPid(dataDir);
    }

    /** The process id in {@code dataDir}'s {@code postmaster.pid}, if the file is there. */
    static Optional<Long> postmasterPid(Path dataDir) {
        try {
            Path pidFile = dataDir.resolve("postmaster.pid");
            if (!Files.exists(pidFile)) {
                return Optional.empty();
            }
            return Optional.of(Long.parseLong(Files.readAllLines(pidFile).get(0).trim()));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    boolean isUp() {
        return postmasterPid().flatMap(ProcessHandle::of)
                .map(process -> process.isAlive() && !isZombie(process.pid())).orElse(false);
    }

    /** What differs between the two servers; the rest is in {@link #SETTINGS}. */
    private List<String> options() {
        return List.of("-p " + port);
    }

    private void emptyDataDirectory() {
        org.springframework.util.FileSystemUtils.deleteRecursively(dataDir.toFile());
        try {
            Files.createDirectories(dataDir);
            Files.setPosixFilePermissions(dataDir, java.nio.file.attribute.PosixFilePermissions.fromString(
                    "rwx------"));
            if (!Files.exists(log)) {
                Files.createFile(log);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        chownToPostgres(dataDir);
        chownToPostgres(log);
    }

    private static void chownToPostgres(Path path) {
        try {
            var users = path.getFileSystem().getUserPrincipalLookupService();
            Files.setOwner(path, users.lookupPrincipalByName(OS_USER));
            Files.getFileAttributeView(path, java.nio.file.attribute.PosixFileAttributeView.class)
                    .setGroup(users.lookupPrincipalByGroupName(OS_USER));
        } catch (IOException e) {
            throw new UncheckedIOException("Could not hand " + path + " to the user " + OS_USER, e);
        }
    }

    /** Runs a PostgreSQL program as {@code postgres}, its output appended to this server's log. */
    private void run(List<String> program, Duration timeout) {
        List<String> command = new ArrayList<>(List.of("/usr/sbin/runuser", "-u", OS_USER, "--"));
        command.addAll(program);
        try {
            Process process = new ProcessBuilder(command).directory(dataDir.getParent().toFile())
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(name + ": " + program.get(0) + " did not finish in " + timeout);
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException(name + ": " + Path.of(program.get(0)).getFileName() + " "
                        + program.get(program.size() - 1) + " failed (exit " + process.exitValue() + "), see " + log
                        + ", which ends: " + tailOfLog());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private String tailOfLog() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join(" | ", lines.subList(Math.max(0, lines.size() - 12), lines.size()));
        } catch (IOException | RuntimeException e) {
            return "(unreadable: " + e + ")";
        }
    }

    /** A fast shutdown if it runs (an immediate one if that fails); the data directory stays for a look. */
    @Override
    public void close() {
        if (!isUp()) {
            return;
        }
        try {
            run(List.of(BIN.resolve("pg_ctl").toString(), "-D", dataDir.toString(), "-m", "fast", "-w", "-t", "30",
                    "stop"), Duration.ofSeconds(45));
        } catch (RuntimeException e) {
            try {
                immediateStop();
            } catch (RuntimeException ignored) {
                // nothing more to do
            }
        }
    }

    @Override
    public String toString() {
        return name + " :" + port;
    }
}
