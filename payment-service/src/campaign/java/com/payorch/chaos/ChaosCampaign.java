package com.payorch.chaos;

import com.payorch.chaos.check.Checker;
import com.payorch.chaos.history.History;
import com.payorch.chaos.history.HistoryEntry;
import com.payorch.chaos.nemesis.Nemesis;
import com.payorch.chaos.workload.Workload;
import com.payorch.chaos.world.World;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

/**
 * The fault campaign (issue 14), run by {@code payment-service/chaos/run.sh}: starts the {@link World}, runs the
 * {@link Workload}'s clients and the {@link Nemesis} for {@code CHAOS_DURATION} seconds, heals everything, waits for
 * the recovery horizon (nothing PENDING/PROCESSING, outbox, merchant deliveries and e-mails drained; at most
 * {@code CHAOS_HORIZON} seconds), then lets the {@link Checker} read the history and the final state. Prints the
 * checker's lines and a summary; writes into the output directory the history, {@code summary.json}, the instances'
 * and PostgreSQL's logs and, when an invariant failed, {@code seed.txt}, {@code faults.jsonl} (the NEMESIS entries)
 * and {@code offending-history.jsonl}. Exit code 0 iff no invariant failed.
 *
 * <p>Environment: {@code CHAOS_SEED} (default random), {@code CHAOS_DURATION} (s, 180), {@code CHAOS_CLIENTS} (8),
 * {@code CHAOS_KAFKA} (1: with a broker), {@code CHAOS_OUT} (target/chaos/<seed>), {@code CHAOS_JAR} (the boot
 * jar; unset: the main class on this classpath), {@code CHAOS_HEAP} (384m), {@code CHAOS_HORIZON} (s, 120),
 * {@code CHAOS_MAX_FAULTS} (faults active at once, 2), {@code CHAOS_FAILOVER} (1: a primary and a synchronous
 * standby of Debian's PostgreSQL, and primary failovers, {@code CHAOS_FAILOVERS} of them, default 2; the 503 window of
 * each is printed and in {@code summary.json}).
 */
public final class ChaosCampaign {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private ChaosCampaign() {
    }

    public static void main(String[] args) {
        long seed = env("CHAOS_SEED") == null ? ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE)
                : Long.parseLong(env("CHAOS_SEED"));
        Duration duration = Duration.ofSeconds(Long.parseLong(envOr("CHAOS_DURATION", "180")));
        int clients = Integer.parseInt(envOr("CHAOS_CLIENTS", "8"));
        boolean kafka = "1".equals(env("CHAOS_KAFKA")) || "true".equalsIgnoreCase(env("CHAOS_KAFKA"));
        Path out = Path.of(envOr("CHAOS_OUT", "target/chaos/" + seed)).toAbsolutePath();
        Path jar = env("CHAOS_JAR") == null ? null : Path.of(env("CHAOS_JAR")).toAbsolutePath();
        Duration horizon = Duration.ofSeconds(Long.parseLong(envOr("CHAOS_HORIZON", "120")));
        int maxFaults = Integer.parseInt(envOr("CHAOS_MAX_FAULTS", "2"));
        boolean failover = "1".equals(env("CHAOS_FAILOVER")) || "true".equalsIgnoreCase(env("CHAOS_FAILOVER"));
        int failovers = failover ? Integer.parseInt(envOr("CHAOS_FAILOVERS", "2")) : 0;
        log("seed " + seed + " (CHAOS_SEED=" + seed + " repeats the schedule), " + duration.toSeconds() + " s, "
                + clients + " clients, kafka " + (kafka ? "on" : "off") + ", " + (failover ? "a primary and a"
                + " synchronous standby, " + failovers + " failovers" : "one PostgreSQL") + ", output " + out);
        int exit;
        try {
            exit = run(seed, duration, clients, kafka, out, jar, horizon, maxFaults, failover, failovers);
        } catch (Throwable e) {
            log("the campaign itself failed: " + e);
            e.printStackTrace();
            exit = 2;
        }
        System.exit(exit);
    }

    static int run(long seed, Duration duration, int clients, boolean kafka, Path out, @Nullable Path jar,
                   Duration horizon, int maxFaults, boolean primaryAndStandby, int failovers) throws IOException {
        Files.createDirectories(out);
        Files.writeString(out.resolve("seed.txt"), seed + "\n");
        long began = System.nanoTime();
        World world = World.start(new World.Config(out, 3, kafka, jar, envOr("CHAOS_HEAP", "384m"),
                primaryAndStandby));
        boolean passed = false;
        Thread hook = new Thread(world::close, "chaos-world-close");
        Runtime.getRuntime().addShutdownHook(hook);
        Path historyFile = out.resolve("history.jsonl");
        try (History history = History.create(historyFile);
             Nemesis nemesis = new Nemesis(world, history, seed, duration, maxFaults, failovers)) {
            log("world up in " + seconds(began) + " s: instances " + world.instanceBaseUrls() + ", PostgreSQL :"
                    + world.primaryAndStandby().map(pair -> pair.ports() + " (primary " + pair.primaryName()
                    + ", synchronous standby)").orElse(String.valueOf(world.postgres().port())) + ", "
                    + nemesis.plan().size() + " faults planned");
            long faultsUntil = System.currentTimeMillis() + duration.toMillis();
            nemesis.start();
            Workload clientsAndGateways = new Workload(world.targets(), history, seed, clients);
            Workload.Summary workload = clientsAndGateways.run(duration);
            nemesis.awaitEnd(faultsUntil); // the nemesis gets its whole duration, however the clients ended
            log("workload done; healing every fault");
            nemesis.stopAndHealAll();
            history.flush();
            long horizonBegan = System.nanoTime();
            // A payment whose customer walked away settles only once the expiry job cancels it: wait at least that.
            Duration wait = horizon.compareTo(World.CUSTOMER_ACTION_EXPIRES_AFTER.plusSeconds(30)) >= 0 ? horizon
                    : World.CUSTOMER_ACTION_EXPIRES_AFTER.plusSeconds(30);
            // Now that nothing is broken, the gateways deliver what they still owe (notifications lost to faults).
            Map<String, Long> unsettled = awaitHorizon(world, wait,
                    () -> clientsAndGateways.settleGateways(Duration.ofSeconds(5)));
            log((unsettled.values().stream().allMatch(n -> n == 0) ? "settled" : "NOT settled: " + unsettled)
                    + " after " + seconds(horizonBegan) + " s");
            history.close();

            List<HistoryEntry> entries = History.read(historyFile);
            Checker.Report report = Checker.check(world.facts(entries), entries);
            report.lines().forEach(line -> System.out.println(line));

            Map<String, Object> summary = summary(seed, duration, clients, kafka, entries, workload, nemesis,
                    unsettled, report, seconds(began));
            List<FailoverWindows.Window> windows = world.primaryAndStandby()
                    .map(pair -> FailoverWindows.of(pair.failovers(), entries)).orElse(List.of());
            if (world.primaryAndStandby().isPresent()) {
                summary.put("failovers", windows.stream().map(FailoverWindows.Window::asMap).toList());
                summary.put("primaryAtCheck", world.primaryAndStandby().get().primaryName());
            }
            printSummary(summary);
            windows.forEach(window -> System.out.println(window.line()));
            if (summary.containsKey("primaryAtCheck")) {
                System.out.println("the checker read " + summary.get("primaryAtCheck") + ", the primary at the end");
            }
            Files.writeString(out.resolve("summary.json"),
                    JSON.writerWithDefaultPrettyPrinter().writeValueAsString(summary));
            if (report.failed() > 0) {
                writeFailure(out, seed, entries, report);
                log("FAILED: seed " + seed + "; fault schedule, offending history and logs in " + out);
            }
            if (report.failed() == 0) {
                passed = true;
            }
            return report.failed() == 0 ? 0 : 1;
        } finally {
            world.close();
            if (passed) {
                // the database's files only matter for a failed run (the logs and the history stay)
                for (String data : List.of("postgres", "pg-a", "pg-b")) {
                    org.springframework.util.FileSystemUtils.deleteRecursively(out.resolve(data));
                }
            }
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException ignored) {
                // already shutting down
            }
        }
    }

    /**
     * Polls the world's unsettled work until all of it is done or {@code max} has passed, running {@code meanwhile}
     * before each poll; what is left.
     */
    static Map<String, Long> awaitHorizon(World world, Duration max, Runnable meanwhile) {
        long deadline = System.nanoTime() + max.toNanos();
        Map<String, Long> unsettled = world.unsettled();
        while (!(isSettled(unsettled)) && System.nanoTime() < deadline) {
            meanwhile.run();
            synchronized (world) {
                try {
                    world.wait(500); // a poll interval, nothing to be notified of
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            unsettled = world.unsettled();
        }
        return unsettled;
    }

    private static boolean isSettled(Map<String, Long> unsettled) {
        return !unsettled.isEmpty() && unsettled.values().stream().allMatch(n -> n == 0);
    }

    static Map<String, Object> summary(long seed, Duration duration, int clients, boolean kafka,
                                       List<HistoryEntry> entries, Workload.Summary workload, Nemesis nemesis,
                                       Map<String, Long> unsettled, Checker.Report report, long seconds) {
        Map<String, Long> operations = new TreeMap<>();
        for (HistoryEntry entry : entries) {
            if (entry.kind() == HistoryEntry.Kind.ANSWERED) {
                operations.merge(entry.operation() + " " + entry.status(), 1L, Long::sum);
            } else if (entry.kind() == HistoryEntry.Kind.LOST) {
                operations.merge(entry.operation() + " lost", 1L, Long::sum);
            }
        }
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("seed", seed);
        summary.put("durationSeconds", duration.toSeconds());
        summary.put("clients", clients);
        summary.put("kafka", kafka);
        summary.put("wallSeconds", seconds);
        summary.put("requests", entries.stream().filter(e -> e.kind() == HistoryEntry.Kind.INVOKE).count());
        summary.put("operations", operations);
        summary.put("workloadOutcomes", new TreeMap<>(workload.outcomes()));
        summary.put("faults", nemesis.startedByKind());
        summary.put("faultsSkipped", nemesis.skippedByKind());
        summary.put("unsettledAtCheck", unsettled);
        summary.put("invariantsPassed", report.passed());
        summary.put("invariantsFailed", report.failed());
        summary.put("failedInvariants", report.results().stream().filter(r -> !r.passed())
                .map(Checker.InvariantResult::name).toList());
        return summary;
    }

    private static void printSummary(Map<String, Object> summary) {
        System.out.println("--- summary (seed " + summary.get("seed") + ", " + summary.get("wallSeconds") + " s) ---");
        System.out.println("requests: " + summary.get("requests"));
        System.out.println("operations by kind/outcome: " + summary.get("operations"));
        System.out.println("faults by kind: " + summary.get("faults") + " (skipped: " + summary.get("faultsSkipped")
                + ")");
        System.out.println("unsettled at check: " + summary.get("unsettledAtCheck"));
    }

    /** The seed, the fault schedule and the history entries that mention an offending key. */
    static void writeFailure(Path out, long seed, List<HistoryEntry> entries, Checker.Report report)
            throws IOException {
        Files.writeString(out.resolve("seed.txt"), seed + "\n");
        List<String> faults = new ArrayList<>();
        for (HistoryEntry entry : entries) {
            if (entry.kind() == HistoryEntry.Kind.NEMESIS) {
                faults.add(JSON.writeValueAsString(entry));
            }
        }
        Files.write(out.resolve("faults.jsonl"), faults, StandardCharsets.UTF_8);
        List<String> offending = new ArrayList<>();
        for (HistoryEntry entry : Checker.offendingHistory(report, entries)) {
            offending.add(JSON.writeValueAsString(entry));
        }
        Files.write(out.resolve("offending-history.jsonl"), offending, StandardCharsets.UTF_8);
        List<String> failed = new ArrayList<>();
        report.results().stream().filter(r -> !r.passed())
                .forEach(r -> failed.add(r.name() + ": " + r.detail() + " " + r.offendingKeys()));
        Files.write(out.resolve("failed-invariants.txt"), failed, StandardCharsets.UTF_8);
    }

    private static long seconds(long sinceNanos) {
        return Duration.ofNanos(System.nanoTime() - sinceNanos).toSeconds();
    }

    private static void log(String message) {
        System.out.println("[chaos " + Instant.now().toString().substring(11, 19) + "] " + message);
    }

    private static @Nullable String env(String name) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? null : value.trim();
    }

    private static String envOr(String name, String fallback) {
        String value = env(name);
        return value == null ? fallback : value;
    }
}
