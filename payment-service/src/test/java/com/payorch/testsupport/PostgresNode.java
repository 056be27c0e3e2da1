package com.payorch.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.springframework.util.FileSystemUtils;

/**
 * One PostgreSQL server of Debian's packages (the newest {@code /usr/lib/postgresql/<version>/bin} with every program
 * a pair needs; {@code .ci/run} installs {@code postgresql-15}), a process of its own on a fixed port and data
 * directory. PostgreSQL refuses to run as root: when this JVM is root (the campaign and CI are), every PostgreSQL
 * program runs as the operating-system user {@code postgres} through {@code runuser}, and its directories are handed
 * to that user. It can be the primary or a streaming standby; {@link PostgresPair} decides which. fsync is off (only
 * PostgreSQL crashes, not the machine); data checksums are on, as {@code pg_rewind} needs.
 */
public final class PostgresNode implements AutoCloseable {

    static final Path DEBIAN_VERSIONS = Path.of("/usr/lib/postgresql");
    private static final List<String> PROGRAMS = List.of("initdb", "pg_ctl", "pg_basebackup", "pg_rewind",
            "postgres");
    private static final String OS_USER = "postgres";
    private static final boolean ROOT = "root".equals(System.getProperty("user.name"));
    private static final Path RUNUSER = Path.of("/usr/sbin/runuser");
    private static final Optional<Path> BIN = newestBinaries();

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

    /** Whether Debian's PostgreSQL is installed and can run here: as this user, or as {@code postgres} when root. */
    static boolean available() {
        return BIN.isPresent() && (!ROOT || Files.isExecutable(RUNUSER) && userExists());
    }

    public String name() {
        return name;
    }

    public int port() {
        return port;
    }

    public String jdbcUrl() {
        return "jdbc:postgresql://localhost:" + port + "/postgres";
    }

    public Connection connect() throws SQLException {
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
        run(List.of(program("initdb"), "-D", dataDir.toString(), "-U", "postgres", "-A", "trust",
                "-E", "UTF8", "--locale=C", "--data-checksums", "--no-sync"), Duration.ofSeconds(120));
        try {
            Files.writeString(dataDir.resolve("postgresql.conf"), String.join("\n", SETTINGS) + "\n",
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Both servers' settings; a standby's copy comes with its base backup. */
    private static final List<String> SETTINGS = List.of(
            "# com.payorch.testsupport.PostgresNode's",
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
        run(List.of(program("pg_ctl"), "-D", dataDir.toString(), "-l", log.toString(), "-w",
                "-t", "120", "-o", "-p " + port, "start"), Duration.ofSeconds(150));
    }

    /** {@code pg_ctl stop -m immediate}: the postmaster and every backend quit at once, no checkpoint. */
    void immediateStop() {
        run(List.of(program("pg_ctl"), "-D", dataDir.toString(), "-m", "immediate", "-w", "-t",
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
        run(List.of(program("pg_ctl"), "-D", dataDir.toString(), "-w", "-t", "60", "promote"),
                Duration.ofSeconds(90));
    }

    /**
     * {@code pg_rewind} of this (stopped, possibly crashed) server's data directory to {@code primary}'s timeline,
     * configured as its standby ({@code -R}); false when it failed (a fresh base backup is then the way).
     */
    boolean rewindFrom(PostgresNode primary) {
        try {
            run(List.of(program("pg_rewind"), "-D", dataDir.toString(), "--source-server="
                    + primary.conninfo(), "-R"), Duration.ofSeconds(120));
            return true;
        } catch (IllegalStateException failed) {
            return false;
        }
    }

    /** A fresh copy of {@code primary} ({@code pg_basebackup -R}) in place of this data directory: a standby. */
    void baseBackupFrom(PostgresNode primary) {
        emptyDataDirectory();
        run(List.of(program("pg_basebackup"), "-d", primary.conninfo(), "-D", dataDir.toString(),
                "-R", "-X", "stream", "-c", "fast", "--no-sync"), Duration.ofSeconds(180));
    }

    /** The postmaster's process id from {@code postmaster.pid}, if the file is there. */
    Optional<Long> postmasterPid() {
        return postmasterPid(dataDir);
    }

    /** The process id in {@code dataDir}'s {@code postmaster.pid}, if the file is there. */
    public static Optional<Long> postmasterPid(Path dataDir) {
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

    private void emptyDataDirectory() {
        FileSystemUtils.deleteRecursively(dataDir.toFile());
        try {
            Files.createDirectories(dataDir);
            Files.setPosixFilePermissions(dataDir, PosixFilePermissions.fromString("rwx------"));
            if (!Files.exists(log)) {
                Files.createFile(log);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        handToPostgres(dataDir);
        handToPostgres(log);
    }

    /** When this JVM is root: makes the user {@code postgres} the owner of {@code path}, as PostgreSQL runs as it. */
    static void handToPostgres(Path path) {
        if (!ROOT) {
            return;
        }
        try {
            var users = path.getFileSystem().getUserPrincipalLookupService();
            Files.setOwner(path, users.lookupPrincipalByName(OS_USER));
            Files.getFileAttributeView(path, PosixFileAttributeView.class)
                    .setGroup(users.lookupPrincipalByGroupName(OS_USER));
        } catch (IOException e) {
            throw new UncheckedIOException("Could not hand " + path + " to the user " + OS_USER, e);
        }
    }

    /** Runs a PostgreSQL program (as {@code postgres} when this JVM is root), its output appended to this log. */
    private void run(List<String> program, Duration timeout) {
        List<String> command = new ArrayList<>();
        if (ROOT) {
            command.addAll(List.of(RUNUSER.toString(), "-u", OS_USER, "--"));
        }
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

    private static String program(String program) {
        return BIN.orElseThrow(() -> new IllegalStateException("No Debian PostgreSQL under " + DEBIAN_VERSIONS))
                .resolve(program).toString();
    }

    /** The newest installed Debian PostgreSQL that has every program needed. */
    private static Optional<Path> newestBinaries() {
        if (!Files.isDirectory(DEBIAN_VERSIONS)) {
            return Optional.empty();
        }
        try (Stream<Path> versions = Files.list(DEBIAN_VERSIONS)) {
            return versions.map(version -> version.resolve("bin"))
                    .filter(bin -> PROGRAMS.stream().allMatch(program -> Files.isExecutable(bin.resolve(program))))
                    .max(Comparator.comparing(PostgresNode::majorVersion));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static int majorVersion(Path bin) {
        String version = bin.getParent().getFileName().toString();
        return version.matches("\\d+") ? Integer.parseInt(version) : 0;
    }

    private static boolean userExists() {
        try {
            FileSystems.getDefault().getUserPrincipalLookupService().lookupPrincipalByName(OS_USER);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** A fast shutdown if it runs (an immediate one if that fails); the data directory stays for a look. */
    @Override
    public void close() {
        if (!isUp()) {
            return;
        }
        try {
            run(List.of(program("pg_ctl"), "-D", dataDir.toString(), "-m", "fast", "-w", "-t", "30", "stop"),
                    Duration.ofSeconds(45));
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
