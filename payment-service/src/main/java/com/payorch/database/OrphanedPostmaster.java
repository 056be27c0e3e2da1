package com.payorch.database;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A PostgreSQL left running on the data directory by a previous JVM that died without closing it (kill -9).
 * It is stopped with a fast shutdown (SIGINT: disconnect clients, checkpoint, exit) so that zonky can start a
 * fresh one on the same data; committed transactions are kept either way.
 */
final class OrphanedPostmaster {

    private static final Logger log = LoggerFactory.getLogger(OrphanedPostmaster.class);
    private static final Duration FAST_SHUTDOWN_WAIT = Duration.ofSeconds(60);
    private static final Duration IMMEDIATE_SHUTDOWN_WAIT = Duration.ofSeconds(15);
    // zonky holds an OS file lock on this file for as long as its EmbeddedPostgres is open.
    private static final String ZONKY_LOCK_FILE = "epg-lock";

    private OrphanedPostmaster() {
    }

    static void stopIfRunning(Path dataDir) throws IOException {
        Path pidFile = dataDir.resolve("postmaster.pid");
        Optional<Long> pid = readPid(pidFile);
        if (pid.isEmpty()) {
            return;
        }
        Optional<ProcessHandle> process = ProcessHandle.of(pid.get()).filter(ProcessHandle::isAlive);
        if (process.isEmpty()) {
            log.info("Stale {} names PID {}, which is not running; PostgreSQL recovers from it on start",
                    pidFile, pid.get());
            return;
        }
        Optional<String> executable = process.get().info().command();
        if (executable.isPresent() && !isPostgres(executable.get())) {
            // The PID was reused by another program; PostgreSQL would refuse to start while it is alive.
            log.warn("Stale {} names PID {}, now used by {}; removing the file", pidFile, pid.get(), executable.get());
            Files.deleteIfExists(pidFile);
            return;
        }
        requireNoLiveOwner(dataDir, pid.get());
        log.warn("PostgreSQL (PID {}) was left running on {} by a previous run; stopping it", pid.get(), dataDir);
        stop(process.get());
    }

    private static Optional<Long> readPid(Path pidFile) throws IOException {
        try {
            List<String> lines = Files.readAllLines(pidFile);
            return lines.isEmpty() ? Optional.empty() : Optional.of(Long.parseLong(lines.get(0).trim()));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (NumberFormatException e) {
            log.warn("Ignoring unreadable {}", pidFile);
            return Optional.empty();
        }
    }

    private static boolean isPostgres(String executable) {
        String name = Path.of(executable).getFileName().toString();
        return name.equals("postgres") || name.equals("postgres.exe");
    }

    /** Refuses to stop a PostgreSQL that a running service (in this JVM or another) still owns. */
    private static void requireNoLiveOwner(Path dataDir, long pid) throws IOException {
        Path lockFile = dataDir.resolve(ZONKY_LOCK_FILE);
        if (!Files.exists(lockFile)) {
            return;
        }
        try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.WRITE);
             FileLock lock = channel.tryLock()) {
            if (lock == null) {
                throw inUse(dataDir, pid);
            }
        } catch (OverlappingFileLockException e) {
            throw inUse(dataDir, pid);
        }
    }

    private static IllegalStateException inUse(Path dataDir, long pid) {
        return new IllegalStateException("The embedded PostgreSQL data directory " + dataDir
                + " is in use by another running service (PostgreSQL PID " + pid + ")");
    }

    private static void stop(ProcessHandle postmaster) throws IOException {
        signal(postmaster, "INT");
        if (awaitExit(postmaster, FAST_SHUTDOWN_WAIT)) {
            log.info("Stopped PostgreSQL PID {} (fast shutdown)", postmaster.pid());
            return;
        }
        log.warn("PostgreSQL PID {} did not stop within {}; requesting immediate shutdown (WAL replay on next start)",
                postmaster.pid(), FAST_SHUTDOWN_WAIT);
        signal(postmaster, "QUIT");
        if (!awaitExit(postmaster, IMMEDIATE_SHUTDOWN_WAIT)) {
            throw new IllegalStateException("PostgreSQL PID " + postmaster.pid() + " left running on the data"
                    + " directory does not stop; stop it by hand (pg_ctl stop -m fast -D <data dir>)");
        }
    }

    private static void signal(ProcessHandle postmaster, String signal) throws IOException {
        if (System.getProperty("os.name").startsWith("Windows")) {
            postmaster.destroy(); // no signals on Windows; the WAL keeps committed data
            return;
        }
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(postmaster.pid()))
                .redirectErrorStream(true)
                .start();
        try {
            if (!kill.waitFor(10, TimeUnit.SECONDS)) {
                kill.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("Interrupted while signalling PostgreSQL", e);
        }
    }

    private static boolean awaitExit(ProcessHandle process, Duration timeout) throws IOException {
        try {
            process.onExit().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (ExecutionException e) {
            throw new IOException("Could not wait for PostgreSQL PID " + process.pid(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("Interrupted while waiting for PostgreSQL to stop", e);
        }
    }
}
