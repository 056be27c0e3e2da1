package com.payorch.testsupport;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.springframework.util.FileSystemUtils;

/**
 * A PostgreSQL primary and a streaming standby of it, two processes of Debian's PostgreSQL (the newest
 * {@code /usr/lib/postgresql/<version>/bin} with pg_basebackup), as a failover test needs them: replication is
 * synchronous, so a commit is acknowledged only once the standby has it; the primary can be killed with SIGKILL or
 * fenced read-only, and the standby promoted. Runs the binaries as user {@code postgres} when the JVM is root
 * (PostgreSQL refuses root). {@link #isAvailable()} says whether this machine can; tests skip when it cannot.
 */
public final class PostgresPair implements AutoCloseable {

    public static final String USER = "postgres";
    public static final String DATABASE = "postgres";

    private static final Path DEBIAN_VERSIONS = Path.of("/usr/lib/postgresql");
    private static final List<String> NEEDED = List.of("initdb", "pg_ctl", "pg_basebackup", "postgres");
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(120);
    private static final boolean ROOT = "root".equals(System.getProperty("user.name"));
    private static final String RUNUSER = "/usr/sbin/runuser";

    private final Path binaries;
    private final Path root;
    private final Node first;
    private final Node second;
    private Node primary;
    private Node standby;

    /** One PostgreSQL process: its data directory and port. */
    public record Node(String name, Path dataDir, int port) {
    }

    private PostgresPair(Path binaries, Path root) {
        this.binaries = binaries;
        this.root = root;
        this.first = new Node("first", root.resolve("first"), freePort());
        this.second = new Node("second", root.resolve("second"), freePort());
    }

    /** Debian's PostgreSQL binaries are installed, and can run as a user other than root. */
    public static boolean isAvailable() {
        return binaries().isPresent() && (!ROOT || Files.isExecutable(Path.of(RUNUSER)) && postgresUser().isPresent());
    }

    /** Starts the primary ({@link #first()}) and its synchronous standby ({@link #second()}). */
    public static PostgresPair start() {
        Path binaries = binaries().orElseThrow(() -> new IllegalStateException(
                "No Debian PostgreSQL with pg_basebackup under " + DEBIAN_VERSIONS + " (apt-get install postgresql-15)"));
        PostgresPair pair = null;
        try {
            Path root = Files.createTempDirectory("payments-postgres-pair");
            if (ROOT) {
                Files.setOwner(root, postgresUser().orElseThrow());
            }
            pair = new PostgresPair(binaries, root);
            pair.startBoth();
            return pair;
        } catch (IOException | RuntimeException e) {
            if (pair != null) {
                pair.close();
            }
            throw e instanceof IOException io ? new UncheckedIOException(io) : (RuntimeException) e;
        }
    }

    /** The node that started as the primary. */
    public Node first() {
        return first;
    }

    /** The node that started as the standby. */
    public Node second() {
        return second;
    }

    /**
     * The pair as the service sees it: r2dbc-postgresql's and pgJDBC's multi-host URLs over the first and the second
     * node, in that order, to the one that is the primary.
     */
    public TestDatabase database() {
        return multiHost(first.port(), second.port());
    }

    /** Multi-host URLs over 127.0.0.1 at these ports, in this order, to the one that is the primary. */
    public static TestDatabase multiHost(int... ports) {
        String hosts = IntStream.of(ports).mapToObj(port -> "127.0.0.1:" + port).collect(Collectors.joining(","));
        String address = hosts + "/" + DATABASE + "?targetServerType=primary";
        return new TestDatabase(TestDatabase.Kind.EXTERNAL, "r2dbc:postgresql:failover://" + address,
                "jdbc:postgresql://" + address, USER, "");
    }

    /** A port nothing listens on (until someone takes it). */
    public static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** SIGKILL to the primary's postmaster, as a crash would; returns once its processes are gone. */
    public void killPrimary() {
        ProcessHandle postmaster = ProcessHandle.of(postmasterPid(primary))
                .orElseThrow(() -> new IllegalStateException("the primary is not running"));
        List<ProcessHandle> backends = postmaster.descendants().toList();
        postmaster.destroyForcibly();
        // Its backends notice the postmaster's death and exit, closing their clients' connections.
        await().atMost(Duration.ofSeconds(30))
                .until(() -> !postmaster.isAlive() && backends.stream().noneMatch(ProcessHandle::isAlive));
    }

    /**
     * Fences the primary as a failover manager may before promoting another node: it keeps running and answering,
     * but every new transaction is read-only, so writes fail with SQLSTATE 25006.
     */
    public void fencePrimary() {
        execute(primary, "alter system set default_transaction_read_only = on");
        execute(primary, "select pg_reload_conf()");
    }

    /** {@code pg_ctl promote} of the standby, which returns once it accepts writes; it is the primary from now on. */
    public void promoteStandby() {
        if (standby == null) {
            throw new IllegalStateException("no standby to promote");
        }
        pgCtl(standby, "promote", "-w", "-t", "60");
        primary = standby;
        standby = null;
    }

    /** The first column of the one row {@code sql} returns on {@code node}, as text. */
    public String query(Node node, String sql) {
        try (Connection connection = connect(node);
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery(sql)) {
            return rows.next() ? rows.getString(1) : null;
        } catch (SQLException e) {
            throw new IllegalStateException("On " + node.name() + ": " + sql, e);
        }
    }

    /** Stops what still runs (immediate shutdown) and deletes both data directories. */
    @Override
    public void close() {
        for (Node node : List.of(first, second)) {
            if (Files.exists(node.dataDir().resolve("postmaster.pid"))) {
                try {
                    pgCtl(node, "stop", "-m", "immediate", "-w", "-t", "30");
                } catch (RuntimeException e) {
                    // Already dead (killed): nothing to stop.
                }
            }
        }
        try {
            FileSystemUtils.deleteRecursively(root);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void startBoth() {
        run(binaries.resolve("initdb").toString(), "-D", first.dataDir().toString(), "-U", USER, "-A", "trust",
                "-E", "UTF8", "--locale=C", "--no-sync");
        // On the command line, not in postgresql.conf: the standby copies that file, and once promoted it must not
        // wait for a standby of its own.
        startNode(first, "-c synchronous_standby_names='*'");
        primary = first;
        run(binaries.resolve("pg_basebackup").toString(), "-h", "127.0.0.1", "-p", Integer.toString(first.port()),
                "-U", USER, "-D", second.dataDir().toString(), "-R", "-X", "stream", "-c", "fast", "--no-sync");
        startNode(second, "");
        standby = second;
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).until(() -> "1".equals(
                query(first, "select count(*) from pg_stat_replication where sync_state = 'sync'")));
    }

    private void startNode(Node node, String extraOptions) {
        // A process dies in these tests, not the machine: fsync adds nothing but time.
        String options = "-p " + node.port() + " -c listen_addresses=127.0.0.1 -c unix_socket_directories="
                + root + " -c fsync=off -c synchronous_commit=on " + extraOptions;
        pgCtl(node, "start", "-w", "-t", "60", "-l", root.resolve(node.name() + ".log").toString(), "-o", options);
    }

    private void pgCtl(Node node, String... arguments) {
        List<String> command = new ArrayList<>(List.of(binaries.resolve("pg_ctl").toString(), "-D",
                node.dataDir().toString()));
        command.addAll(List.of(arguments));
        run(command.toArray(String[]::new));
    }

    private void execute(Node node, String sql) {
        try (Connection connection = connect(node); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException("On " + node.name() + ": " + sql, e);
        }
    }

    private static Connection connect(Node node) throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + node.port() + "/" + DATABASE, USER, "");
    }

    private static long postmasterPid(Node node) {
        try {
            return Long.parseLong(Files.readAllLines(node.dataDir().resolve("postmaster.pid")).get(0).trim());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs a PostgreSQL program (as user postgres when this JVM is root); its output goes to a log in the root. */
    private void run(String... command) {
        List<String> full = new ArrayList<>();
        if (ROOT) {
            full.addAll(List.of(RUNUSER, "-u", USER, "--"));
        }
        full.addAll(List.of(command));
        Path output = root.resolve("commands.log");
        try {
            Process process = new ProcessBuilder(full)
                    .directory(root.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile()))
                    .start();
            if (!process.waitFor(COMMAND_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("Timed out: " + String.join(" ", full));
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException("Failed (exit " + process.exitValue() + "): " + String.join(" ", full)
                        + "\n" + Files.readString(output));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted: " + String.join(" ", full), e);
        }
    }

    private static Optional<UserPrincipal> postgresUser() {
        try {
            return Optional.of(FileSystems.getDefault().getUserPrincipalLookupService().lookupPrincipalByName(USER));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** The newest installed Debian PostgreSQL that has every program needed. */
    private static Optional<Path> binaries() {
        if (!Files.isDirectory(DEBIAN_VERSIONS)) {
            return Optional.empty();
        }
        try (Stream<Path> versions = Files.list(DEBIAN_VERSIONS)) {
            return versions.map(version -> version.resolve("bin"))
                    .filter(bin -> NEEDED.stream().allMatch(program -> Files.isExecutable(bin.resolve(program))))
                    .max(Comparator.comparing(PostgresPair::majorVersion));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static int majorVersion(Path bin) {
        String version = bin.getParent().getFileName().toString();
        return version.matches("\\d+") ? Integer.parseInt(version) : 0;
    }
}
