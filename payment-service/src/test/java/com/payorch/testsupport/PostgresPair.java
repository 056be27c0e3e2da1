package com.payorch.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.jspecify.annotations.Nullable;
import org.springframework.util.FileSystemUtils;

/**
 * A primary and a streaming standby of Debian's PostgreSQL, each a process of its own on a fixed port
 * ({@link PostgresNode}), with synchronous replication: the primary's {@code synchronous_standby_names} is
 * {@code '*'} and {@code synchronous_commit} on, so a commit is acknowledged only once the standby has it. Used by
 * {@code PrimaryFailoverIT} and by the fault campaign ({@code CHAOS_FAILOVER=1}); {@link #isAvailable()} says whether
 * this machine can run it, and tests skip when it cannot.
 *
 * <p>The primary can be killed ({@link #killPrimary()}) or fenced read-only ({@link #fencePrimary()}), and the
 * standby promoted ({@link #promoteStandby()}); {@link #failover()} is both at once, what a failure of the primary's
 * machine and an operator (or Patroni) do. The promoted server runs without a synchronous standby until
 * {@link #rebuildStandby()} has made the old primary its standby ({@code pg_rewind}, or a fresh
 * {@code pg_basebackup -R} when the rewind fails) and synchronous again; Patroni's {@code synchronous_mode} without
 * {@code synchronous_mode_strict} does the same (writes would otherwise hang until a standby is back).
 */
public final class PostgresPair implements AutoCloseable {

    private static final Duration REPLICATION_WAIT = Duration.ofSeconds(60);

    /**
     * One failover: the old primary killed at {@code killedAtMillis}, the standby accepting writes at
     * {@code promotedAtMillis}; {@code standbyAgainAtMillis} once the old primary is a synchronous standby again.
     */
    public record Failover(int number, String from, String to, long killedAtMillis, long promotedAtMillis,
                           @Nullable Long standbyAgainAtMillis, @Nullable String rebuiltBy) {
    }

    private final PostgresNode first;
    private final PostgresNode second;
    private final @Nullable Path temporaryDirectory;
    private final List<Failover> failovers = new ArrayList<>();
    private volatile PostgresNode primary;
    private volatile @Nullable PostgresNode standby;
    private volatile boolean primaryRunning;

    private PostgresPair(Path dir, int firstPort, int secondPort, @Nullable Path temporaryDirectory) {
        this.first = new PostgresNode("pg-a", dir.resolve("pg-a"), dir.resolve("pg-a.log"), firstPort);
        this.second = new PostgresNode("pg-b", dir.resolve("pg-b"), dir.resolve("pg-b.log"), secondPort);
        this.temporaryDirectory = temporaryDirectory;
        this.primary = first;
    }

    /** Debian's PostgreSQL is installed, and can run as a user other than root. */
    public static boolean isAvailable() {
        return PostgresNode.available();
    }

    /** A fresh pair in a temporary directory on free ports; {@link #close()} deletes the directory. */
    public static PostgresPair start() {
        Path dir;
        try {
            dir = Files.createTempDirectory("payments-postgres-pair");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        PostgresNode.handToPostgres(dir);
        return startBoth(new PostgresPair(dir, freePort(), freePort(), dir));
    }

    /**
     * A fresh primary in {@code dir}/pg-a and its synchronous standby in {@code dir}/pg-b, logs beside them; they
     * stay after {@link #close()} for a look.
     */
    public static PostgresPair start(Path dir, int firstPort, int secondPort) {
        return startBoth(new PostgresPair(dir, firstPort, secondPort, null));
    }

    private static PostgresPair startBoth(PostgresPair pair) {
        try {
            if (!isAvailable()) {
                throw new IllegalStateException("A primary and a standby need Debian's PostgreSQL under "
                        + PostgresNode.DEBIAN_VERSIONS + " (apt-get install postgresql-15) and, as root, runuser");
            }
            pair.first.initdb();
            pair.first.start();
            pair.primaryRunning = true;
            pair.second.baseBackupFrom(pair.first);
            pair.second.start();
            pair.makeSynchronous(pair.first, pair.second);
            pair.standby = pair.second;
            return pair;
        } catch (RuntimeException e) {
            pair.close();
            throw e;
        }
    }

    /** The server that started as the primary ({@code pg-a}). */
    public PostgresNode first() {
        return first;
    }

    /** The server that started as the standby ({@code pg-b}). */
    public PostgresNode second() {
        return second;
    }

    /** The server that is primary now. */
    public PostgresNode primary() {
        return primary;
    }

    public String primaryName() {
        return primary.name();
    }

    /** Both ports, first and second server: clients name both, the primary is found by asking. */
    public List<Integer> ports() {
        return List.of(first.port(), second.port());
    }

    /**
     * The pair as the service sees it: r2dbc-postgresql's and pgJDBC's multi-host URLs over the first and the second
     * server, in that order, to the one that is the primary.
     */
    public TestDatabase database() {
        return multiHost(first.port(), second.port());
    }

    /** Multi-host URLs over 127.0.0.1 at these ports, in this order, to the one that is the primary. */
    public static TestDatabase multiHost(int... ports) {
        String hosts = IntStream.of(ports).mapToObj(port -> "127.0.0.1:" + port).collect(Collectors.joining(","));
        String address = hosts + "/postgres?targetServerType=primary";
        return new TestDatabase(TestDatabase.Kind.EXTERNAL, "r2dbc:postgresql:failover://" + address,
                "jdbc:postgresql://" + address, "postgres", "");
    }

    /** A port nothing listens on (until someone takes it). */
    public static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A connection to the server that is primary now. */
    public Connection connect() throws SQLException {
        return primary.connect();
    }

    public boolean isPrimaryRunning() {
        return primaryRunning;
    }

    /** Whether a standby is streaming synchronously now (false from a promotion until the rebuild). */
    public boolean hasSynchronousStandby() {
        return standby != null;
    }

    public synchronized List<Failover> failovers() {
        return List.copyOf(failovers);
    }

    /**
     * {@code kill -9} of the primary's postmaster, as a crash of its machine; returns once its processes are gone
     * (its backends notice the postmaster's death and exit, closing their clients' connections).
     */
    public synchronized void killPrimary() {
        if (!primaryRunning) {
            throw new IllegalStateException("the primary " + primary + " is not running");
        }
        primary.kill9();
        primaryRunning = false;
        primary.awaitKilled();
    }

    /**
     * Fences the primary as a failover manager may before promoting another server: it keeps running and answering,
     * but every new transaction is read-only, so writes fail with SQLSTATE 25006.
     */
    public synchronized void fencePrimary() {
        alterSystem(primary, "default_transaction_read_only", "on");
    }

    /** {@code pg_ctl promote} of the standby, which returns once it accepts writes; it is the primary from now on. */
    public synchronized void promoteStandby() {
        PostgresNode next = standby;
        if (next == null) {
            throw new IllegalStateException("no standby to promote");
        }
        next.promote();
        // A promoted server may carry '*' from its base backup or rewind: with no standby yet, every commit would wait.
        alterSystem(next, "synchronous_standby_names", "");
        standby = null;
        primary = next;
        primaryRunning = true;
    }

    /** {@link #killPrimary()}, then at once {@link #promoteStandby()}; returns when the new primary accepts writes. */
    public synchronized Failover failover() {
        PostgresNode old = primary;
        PostgresNode next = standby;
        if (next == null || !primaryRunning) {
            throw new IllegalStateException("no failover without a running primary and a standby");
        }
        long killedAt = System.currentTimeMillis();
        killPrimary();
        promoteStandby();
        Failover failover = new Failover(failovers.size() + 1, old.name(), next.name(), killedAt,
                System.currentTimeMillis(), null, null);
        failovers.add(failover);
        return failover;
    }

    /**
     * The server that is not primary made the primary's synchronous standby again: {@code pg_rewind} of its data
     * directory to the primary's timeline, or a fresh base backup when that fails; what did it.
     */
    public synchronized String rebuildStandby() {
        PostgresNode old = primary == first ? second : first;
        stopIfUp(old);
        // pg_rewind reads the source's timeline from its last checkpoint: one after the promotion, or it sees none
        checkpoint(primary);
        String by = "pg_rewind";
        try {
            if (!old.rewindFrom(primary)) {
                throw new IllegalStateException("pg_rewind failed");
            }
            old.start();
            makeSynchronous(primary, old);
        } catch (RuntimeException rewindDidNotDo) {
            by = "pg_basebackup (pg_rewind: " + rewindDidNotDo.getMessage() + ")";
            stopIfUp(old);
            old.baseBackupFrom(primary);
            old.start();
            makeSynchronous(primary, old);
        }
        standby = old;
        int last = failovers.size() - 1;
        if (last >= 0 && failovers.get(last).standbyAgainAtMillis() == null) {
            Failover done = failovers.get(last);
            failovers.set(last, new Failover(done.number(), done.from(), done.to(), done.killedAtMillis(),
                    done.promotedAtMillis(), System.currentTimeMillis(), by));
        }
        return by + " of " + old.name() + " from " + primary.name() + "; synchronous standby again";
    }

    /** Starts the primary again after {@link #stopPrimaryImmediately()}; returns when it accepts connections. */
    public synchronized void startPrimary() {
        primary.start();
        primaryRunning = true;
    }

    /** {@code pg_ctl stop -m immediate} of the primary: every backend quits at once, like a crash. */
    public synchronized void stopPrimaryImmediately() {
        primaryRunning = false;
        primary.immediateStop();
    }

    /** The first column of the one row {@code sql} returns on {@code node}, as text. */
    public String query(PostgresNode node, String sql) {
        try (Connection connection = node.connect();
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery(sql)) {
            return rows.next() ? rows.getString(1) : null;
        } catch (SQLException e) {
            throw new IllegalStateException("On " + node + ": " + sql, e);
        }
    }

    private static void stopIfUp(PostgresNode node) {
        if (node.isUp()) {
            node.immediateStop();
        }
    }

    private static void checkpoint(PostgresNode node) {
        try (Connection connection = node.connect(); var statement = connection.createStatement()) {
            statement.execute("checkpoint");
        } catch (SQLException e) {
            throw new IllegalStateException(node + ": checkpoint failed", e);
        }
    }

    /** Waits until {@code standby} streams from {@code primary}, then makes it synchronous and waits for that. */
    private void makeSynchronous(PostgresNode primary, PostgresNode standby) {
        awaitReplicationState(primary, "streaming");
        alterSystem(primary, "synchronous_standby_names", "*");
        awaitReplicationState(primary, "sync");
    }

    private static void alterSystem(PostgresNode node, String setting, String value) {
        try (Connection connection = node.connect(); var statement = connection.createStatement()) {
            statement.execute("alter system set " + setting + " = '" + value + "'");
            statement.execute("select pg_reload_conf()");
        } catch (SQLException e) {
            throw new IllegalStateException(node + ": could not set " + setting, e);
        }
    }

    /** Waits until {@code primary}'s {@code pg_stat_replication} has a WAL sender in that state or sync state. */
    private static void awaitReplicationState(PostgresNode primary, String state) {
        long deadline = System.nanoTime() + REPLICATION_WAIT.toNanos();
        String seen = "nothing";
        while (System.nanoTime() < deadline) {
            try (Connection connection = primary.connect(); var statement = connection.createStatement();
                 var rows = statement.executeQuery("select state, sync_state from pg_stat_replication")) {
                seen = "";
                while (rows.next()) {
                    seen += rows.getString(1) + "/" + rows.getString(2) + " ";
                    if (state.equals(rows.getString(1)) || state.equals(rows.getString(2))) {
                        return;
                    }
                }
            } catch (SQLException e) {
                seen = e.getMessage();
            }
            synchronized (primary) {
                try {
                    primary.wait(100); // a poll interval, nothing to be notified of
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
        }
        throw new IllegalStateException(primary + ": no standby " + state + " after " + REPLICATION_WAIT
                + " (pg_stat_replication: " + seen + ")");
    }

    /** Stops both servers, the standby first (a primary waiting for it still shuts down fast); see the factories. */
    @Override
    public void close() {
        List<PostgresNode> order = primary == first ? List.of(second, first) : List.of(first, second);
        order.forEach(PostgresNode::close);
        if (temporaryDirectory != null) {
            try {
                FileSystemUtils.deleteRecursively(temporaryDirectory);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
