package com.payorch.chaos.world;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A primary and a streaming standby of Debian's PostgreSQL 15, each a process of its own on a fixed port
 * ({@link PostgresNode}), with synchronous replication: the primary's {@code synchronous_standby_names} is
 * {@code '*'} and {@code synchronous_commit} on, so a commit is acknowledged only once the standby has it.
 *
 * <p>{@link #failover()} is what a failure of the primary's machine and an operator (or Patroni) do: {@code kill -9}
 * of the primary's postmaster, {@code pg_ctl promote} of the standby. The promoted server runs without a synchronous
 * standby until {@link #rebuildStandby()} has made the old primary its standby ({@code pg_rewind}, or a fresh
 * {@code pg_basebackup -R} when the rewind fails) and synchronous again; Patroni's {@code synchronous_mode} without
 * {@code synchronous_mode_strict} does the same (writes would otherwise hang until a standby is back).
 */
public final class PostgresPair implements DatabaseServer {

    private static final Duration REPLICATION_WAIT = Duration.ofSeconds(60);

    /**
     * One failover: the old primary killed at {@code killedAtMillis}, the standby accepting writes at
     * {@code promotedAtMillis}; {@code standbyAgainAtMillis} once the old primary is a synchronous standby again.
     */
    public record Failover(int number, String from, String to, long killedAtMillis, long promotedAtMillis,
                           @Nullable Long standbyAgainAtMillis, @Nullable String rebuiltBy) {
    }

    private final PostgresNode a;
    private final PostgresNode b;
    private final List<Failover> failovers = new ArrayList<>();
    private volatile PostgresNode primary;
    private volatile @Nullable PostgresNode standby;
    private volatile boolean primaryRunning;

    private PostgresPair(PostgresNode a, PostgresNode b) {
        this.a = a;
        this.b = b;
    }

    /** A fresh primary in {@code dir}/pg-a and its synchronous standby in {@code dir}/pg-b; logs beside them. */
    public static PostgresPair start(Path dir, int portA, int portB) {
        if (!PostgresNode.available()) {
            throw new IllegalStateException("A primary failover needs Debian's PostgreSQL 15 in " + PostgresNode.BIN
                    + " (apt-get install postgresql-15) and runuser");
        }
        PostgresPair pair = new PostgresPair(new PostgresNode("pg-a", dir.resolve("pg-a"), dir.resolve("pg-a.log"),
                portA), new PostgresNode("pg-b", dir.resolve("pg-b"), dir.resolve("pg-b.log"), portB));
        pair.primary = pair.a;
        try {
            pair.a.initdb();
            pair.a.start();
            pair.primaryRunning = true;
            pair.b.baseBackupFrom(pair.a);
            pair.b.start();
            pair.makeSynchronous(pair.a, pair.b);
            pair.standby = pair.b;
            return pair;
        } catch (RuntimeException e) {
            pair.close();
            throw e;
        }
    }

    /** Both ports, first and second server: the instances name both, the primary is found by asking. */
    public List<Integer> ports() {
        return List.of(a.port(), b.port());
    }

    public String primaryName() {
        return primary.name();
    }

    public synchronized List<Failover> failovers() {
        return List.copyOf(failovers);
    }

    /** Whether a standby is streaming synchronously now (false from a failover until its rebuild). */
    public boolean hasSynchronousStandby() {
        return standby != null;
    }

    /**
     * {@code kill -9} of the primary's postmaster, then {@code pg_ctl promote} of the standby; returns when the new
     * primary accepts writes.
     */
    public synchronized Failover failover() {
        PostgresNode old = primary;
        PostgresNode next = standby;
        if (next == null || !primaryRunning) {
            throw new IllegalStateException("no failover without a running primary and a standby");
        }
        long killedAt = System.currentTimeMillis();
        old.kill9();
        primaryRunning = false;
        standby = null;
        next.promote();
        // A promoted server may carry '*' from its base backup: with no standby yet, every commit would wait.
        setSynchronousStandbys(next, "");
        primary = next;
        primaryRunning = true;
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
        PostgresNode old = primary == a ? b : a;
        old.awaitKilled();
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
        setSynchronousStandbys(primary, "*");
        awaitReplicationState(primary, "sync");
    }

    private static void setSynchronousStandbys(PostgresNode node, String names) {
        try (Connection connection = node.connect(); var statement = connection.createStatement()) {
            statement.execute("alter system set synchronous_standby_names = '" + names + "'");
            statement.execute("select pg_reload_conf()");
        } catch (SQLException e) {
            throw new IllegalStateException(node + ": could not set synchronous_standby_names", e);
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

    @Override
    public int port() {
        return primary.port();
    }

    @Override
    public boolean isRunning() {
        return primaryRunning;
    }

    @Override
    public String jdbcUrl() {
        return primary.jdbcUrl();
    }

    @Override
    public Connection connect() throws SQLException {
        return primary.connect();
    }

    @Override
    public synchronized void startServer() {
        primary.start();
        primaryRunning = true;
    }

    @Override
    public synchronized void immediateShutdown() {
        primaryRunning = false;
        primary.immediateStop();
    }

    @Override
    public void close() {
        // the standby first: a primary waiting for its synchronous standby still shuts down fast
        List<PostgresNode> order = primary == a ? List.of(b, a) : List.of(a, b);
        order.forEach(PostgresNode::close);
    }
}
