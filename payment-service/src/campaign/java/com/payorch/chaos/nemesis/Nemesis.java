package com.payorch.chaos.nemesis;

import com.payorch.chaos.history.History;
import com.payorch.chaos.history.HistoryEntry;
import com.payorch.chaos.world.LinkProxy;
import com.payorch.chaos.world.ServiceProcess;
import com.payorch.chaos.world.World;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Breaks the world on a schedule drawn from the seed ({@link #plan}): which fault, on what, when and for how long
 * are the same for the same seed (whether a planned fault runs depends on what is still active: at most
 * {@code maxActive} at once, never two on the same target, at most one instance down). Every start and heal is a
 * NEMESIS entry of the history: {@code operation} the fault ({@link Fault#id()}), {@code target} the instance, link
 * ({@code i2.stripe}) or {@code postgres}/{@code receiver}, a PSP ({@code stripe}: all its links, for an outage past
 * give-up-after), or a PSP's behaviour ({@code stripe.late}, {@code stripe.keys}, {@code psp.refunds}: carried out
 * by the world's {@link com.payorch.chaos.world.PspFaults}), {@code note} "start: …" / "heal: …" (what was done).
 */
public final class Nemesis implements AutoCloseable {

    /** One planned fault: {@code atMillis} after the start, held for {@code holdMillis}. */
    public record Planned(long atMillis, Fault fault, String target, long holdMillis, long parameter) {
    }

    private final World world;
    private final History history;
    private final List<Planned> plan;
    private final int maxActive;
    private final Random random;
    private final Set<Active> active = ConcurrentHashMap.newKeySet();
    private final Map<String, Integer> started = new ConcurrentHashMap<>();
    private final Map<String, Integer> skipped = new ConcurrentHashMap<>();
    private final ScheduledExecutorService heals = Executors.newScheduledThreadPool(3, daemon("nemesis-heal"));
    private final ExecutorService runner = Executors.newSingleThreadExecutor(daemon("nemesis"));
    private final Object clock = new Object();
    private volatile boolean stopped;

    public Nemesis(World world, History history, long seed, Duration duration, int maxActive) {
        this(world, history, seed, duration, maxActive, 0);
    }

    /** @param failovers how many {@link Fault#PRIMARY_FAILOVER}s (the world must run a primary and a standby) */
    public Nemesis(World world, History history, long seed, Duration duration, int maxActive, int failovers) {
        this.world = world;
        this.history = history;
        this.maxActive = maxActive;
        this.random = new Random(seed * 7919 + 17);
        List<String> instances = world.instances().stream().map(ServiceProcess::name).toList();
        this.plan = plan(seed, duration, instances, failovers);
    }

    /**
     * The seed's schedule ({@link #plan(long, Duration, List)}, unchanged) and {@code failovers} primary failovers
     * spread evenly over the run (at a third and two thirds of it for two), each followed by the old primary's
     * rebuild as the new standby after {@link #FAILOVER_HOLD}.
     */
    public static List<Planned> plan(long seed, Duration duration, List<String> instances, int failovers) {
        List<Planned> plan = new ArrayList<>(plan(seed, duration, instances));
        for (int i = 1; i <= failovers; i++) {
            plan.add(new Planned(duration.toMillis() * i / (failovers + 1), Fault.PRIMARY_FAILOVER, "postgres",
                    FAILOVER_HOLD.toMillis(), 0));
        }
        plan.sort(java.util.Comparator.comparingLong(Planned::atMillis));
        return List.copyOf(plan);
    }

    /** How long the promoted primary runs without a standby before the old one is rebuilt as its standby. */
    static final Duration FAILOVER_HOLD = Duration.ofSeconds(5);

    /** The longest a failover waits for another fault on PostgreSQL to heal (it is not skipped, unlike others). */
    private static final Duration FAILOVER_WAIT = Duration.ofSeconds(60);

    /**
     * The schedule for a seed: a fault every 1.5–4.5 s from the third second to three seconds before the end, each
     * held 2–7 s (an instance stays down 1–4 s before its restart begins).
     */
    public static List<Planned> plan(long seed, Duration duration, List<String> instances) {
        Random random = new Random(seed);
        List<Fault> weighted = new ArrayList<>();
        for (Fault fault : Fault.values()) {
            for (int i = 0; i < fault.weight(); i++) {
                weighted.add(fault);
            }
        }
        List<Planned> plan = new ArrayList<>();
        long end = duration.toMillis() - 3_000;
        for (long at = 3_000 + random.nextInt(1_500); at < end; at += 1_500 + random.nextInt(3_000)) {
            Fault fault = weighted.get(random.nextInt(weighted.size()));
            String instance = instances.get(random.nextInt(instances.size()));
            String target = switch (fault) {
                case KILL_INSTANCE -> instance;
                case TERMINATE_BACKENDS, DB_RESTART, PRIMARY_FAILOVER -> "postgres";
                case FREEZE_LINK, DELAY_LINK, RESET_LINK ->
                        instance + "." + List.of("db", "stripe", "adyen").get(random.nextInt(3));
                case ANSWERS_LOST -> instance + "." + (random.nextBoolean() ? "stripe" : "adyen");
                case SMTP_STALL -> instance + ".smtp";
                case RECEIVER_DOWN -> "receiver";
                case ANSWERS_LOST_PAST_GIVE_UP -> random.nextBoolean() ? "stripe" : "adyen";
                case LATE_SUCCESS_AFTER_GIVE_UP -> (random.nextBoolean() ? "stripe" : "adyen") + ".late";
                case PSP_FORGETS_KEYS -> "stripe.keys";
                case REFUND_REVERSED -> "psp.refunds";
            };
            long hold = switch (fault) {
                case KILL_INSTANCE, DB_RESTART -> 1_000 + random.nextInt(3_000);
                // twice give-up-after: a payment begun in the outage's first half reaches give-up-after in it
                case ANSWERS_LOST_PAST_GIVE_UP -> 2 * World.GIVE_UP_AFTER.toMillis() + 2_000 + random.nextInt(4_000);
                default -> 2_000 + random.nextInt(5_000);
            };
            long parameter = switch (fault) {
                case TERMINATE_BACKENDS -> 1 + random.nextInt(4);
                case DELAY_LINK -> 200 + random.nextInt(1_500);
                case REFUND_REVERSED -> 1 + random.nextInt(2);
                default -> 0;
            };
            plan.add(new Planned(Math.min(at, end), fault, target, hold, parameter));
        }
        return plan;
    }

    public List<Planned> plan() {
        return plan;
    }

    /** Runs the plan in the background, from now. */
    public void start() {
        long origin = System.currentTimeMillis();
        runner.submit(() -> {
            for (Planned planned : plan) {
                if (!waitUntil(origin + planned.atMillis())) {
                    return;
                }
                try {
                    inject(planned);
                } catch (RuntimeException e) {
                    record(planned.fault().id(), planned.target(), "start failed: " + e);
                }
            }
        });
    }

    private boolean waitUntil(long epochMillis) {
        synchronized (clock) {
            long wait;
            while (!stopped && (wait = epochMillis - System.currentTimeMillis()) > 0) {
                try {
                    clock.wait(wait);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            return !stopped;
        }
    }

    private void inject(Planned planned) {
        if (planned.fault() == Fault.PRIMARY_FAILOVER) {
            awaitNoConflict(planned);
        } else if (active.size() >= maxActive || conflicts(planned)) {
            skipped.merge(planned.fault().id(), 1, Integer::sum);
            return;
        }
        Fault fault = planned.fault();
        String target = planned.target();
        Active fault0 = switch (fault) {
            case KILL_INSTANCE -> {
                ServiceProcess instance = world.instance(target);
                long pid = instance.pid();
                instance.kill();
                yield new Active(fault, target, "SIGKILL pid " + pid, () -> {
                    long begin = System.nanoTime();
                    instance.start();
                    world.pidsChanged();
                    instance.awaitReady(Duration.ofSeconds(180));
                    return "restarted on port " + instance.port() + " (pid " + instance.pid() + "), ready after "
                            + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin) + " ms";
                });
            }
            case TERMINATE_BACKENDS -> {
                String detail;
                try {
                    detail = "terminated backends " + world.postgres().terminateRandomBackends(
                            (int) planned.parameter(), random);
                } catch (java.sql.SQLException e) {
                    detail = "no backend terminated: " + e.getMessage();
                }
                yield new Active(fault, target, detail, () -> "done");
            }
            case DB_RESTART -> {
                world.postgres().immediateShutdown();
                yield new Active(fault, target, "pg_ctl stop -m immediate", () -> {
                    world.postgres().startServer();
                    return "started again on port " + world.postgres().port();
                });
            }
            case FREEZE_LINK, SMTP_STALL -> {
                List<LinkProxy> group = world.linkGroup(target);
                group.forEach(LinkProxy::freeze);
                int open = group.stream().mapToInt(LinkProxy::openConnections).sum();
                yield new Active(fault, target, "frozen (" + open + " connections open)", () -> {
                    group.forEach(LinkProxy::heal);
                    return "flowing";
                });
            }
            case DELAY_LINK -> {
                List<LinkProxy> group = world.linkGroup(target);
                group.forEach(link -> link.delay(planned.parameter()));
                yield new Active(fault, target, "+" + planned.parameter() + " ms per chunk", () -> {
                    group.forEach(LinkProxy::heal);
                    return "no delay";
                });
            }
            case RESET_LINK -> {
                int reset = world.linkGroup(target).stream().mapToInt(LinkProxy::reset).sum();
                yield new Active(fault, target, "reset " + reset + " connections", () -> "done");
            }
            case PRIMARY_FAILOVER -> {
                var pair = world.primaryAndStandby().orElseThrow(() -> new IllegalStateException(
                        "a primary failover needs a primary and a standby (CHAOS_FAILOVER=1)"));
                var failover = pair.failover();
                yield new Active(fault, target, "failover " + failover.number() + ": kill -9 of " + failover.from()
                        + "'s postmaster, " + failover.to() + " promoted, accepting writes "
                        + (failover.promotedAtMillis() - failover.killedAtMillis()) + " ms after the kill",
                        pair::rebuildStandby);
            }
            case ANSWERS_LOST -> {
                LinkProxy link = world.link(target);
                long before = link.answersDropped();
                link.loseAnswers();
                yield new Active(fault, target, "answers dropped, connections reset", () -> {
                    link.heal();
                    return (link.answersDropped() - before) + " answers lost";
                });
            }
            case ANSWERS_LOST_PAST_GIVE_UP -> {
                List<LinkProxy> psp = world.links().entrySet().stream()
                        .filter(link -> link.getKey().endsWith("." + target)).map(Map.Entry::getValue).toList();
                long before = psp.stream().mapToLong(LinkProxy::answersDropped).sum();
                psp.forEach(LinkProxy::loseAnswers);
                world.pspFaults().outage(target, true);
                yield new Active(fault, target, "answers lost on " + psp.size() + " links and webhooks held, for "
                        + planned.holdMillis() + " ms (give-up-after " + World.GIVE_UP_AFTER + ")", () -> {
                    psp.forEach(LinkProxy::heal);
                    world.pspFaults().outage(target, false);
                    return (psp.stream().mapToLong(LinkProxy::answersDropped).sum() - before)
                            + " answers lost; webhooks flowing";
                });
            }
            case LATE_SUCCESS_AFTER_GIVE_UP -> {
                String psp = target.substring(0, target.indexOf('.'));
                int from = world.pspFaults().noteCount();
                world.pspFaults().lateSuccesses(psp, true);
                yield new Active(fault, target, "attempts given up at " + psp + " are charged late", () -> {
                    world.pspFaults().lateSuccesses(psp, false);
                    List<String> done = world.pspFaults().notesSince(from).stream()
                            .filter(note -> note.startsWith("late success " + psp)).toList();
                    return done.size() + " late successes " + done;
                });
            }
            case PSP_FORGETS_KEYS -> {
                var keys = world.pspFaults().stripeKeys();
                long before = keys.forgotten();
                keys.forget(true);
                yield new Active(fault, target, "keys first sent more than " + keys.forgetAfter() + " ago forgotten",
                        () -> {
                            keys.forget(false);
                            return (keys.forgotten() - before) + " requests under a forgotten key";
                        });
            }
            case REFUND_REVERSED -> {
                int from = world.pspFaults().noteCount();
                world.pspFaults().wantReversals((int) planned.parameter());
                yield new Active(fault, target, planned.parameter() + " succeeded refunds to be reported failed",
                        () -> {
                            // a reversal still wanted is reported once a refund has succeeded (until the final heal)
                            List<String> done = world.pspFaults().notesSince(from).stream()
                                    .filter(note -> note.startsWith("refund reversed")).toList();
                            return done.size() + " reversed " + done + ", " + world.pspFaults().reversalsWanted()
                                    + " still wanted";
                        });
            }
            case RECEIVER_DOWN -> {
                world.receiver().down();
                yield new Active(fault, target, "every delivery answered 503", () -> {
                    world.receiver().up();
                    return "answering 204";
                });
            }
        };
        started.merge(fault.id(), 1, Integer::sum);
        active.add(fault0);
        record(fault.id(), target, "start: " + fault0.detail);
        if (fault.instantaneous()) {
            fault0.heal();
        } else {
            heals.schedule(fault0::heal, planned.holdMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** Waits until no fault on the failover's target is active (at most {@link #FAILOVER_WAIT}). */
    private void awaitNoConflict(Planned planned) {
        long deadline = System.nanoTime() + FAILOVER_WAIT.toNanos();
        while (conflicts(planned) && System.nanoTime() < deadline && !stopped) {
            synchronized (clock) {
                try {
                    clock.wait(100); // a poll interval: heals do not notify
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private boolean conflicts(Planned planned) {
        for (Active running : active) {
            if (running.target.equals(planned.target())) {
                return true;
            }
            // one instance down at a time; nothing on PostgreSQL while it is down
            if (running.fault == Fault.KILL_INSTANCE && planned.fault() == Fault.KILL_INSTANCE) {
                return true;
            }
            if (running.fault == Fault.DB_RESTART && planned.target().equals("postgres")) {
                return true;
            }
            // a PSP-wide outage owns every instance's link to that PSP
            if (running.target.endsWith("." + planned.target()) || planned.target().endsWith("." + running.target)) {
                return true;
            }
        }
        return false;
    }

    private void record(String operation, String target, String note) {
        history.record(new HistoryEntry(0, 0, HistoryEntry.Kind.NEMESIS, "nemesis", operation, target, null, null,
                null, null, null, null, null, note));
    }

    /** Returns at {@code epochMillis} (the end of the campaign's duration), or when stopped. */
    public void awaitEnd(long epochMillis) {
        waitUntil(epochMillis);
    }

    /** Stops injecting, heals every active fault now (instances restarted and ready), then checks the world. */
    public void stopAndHealAll() {
        stopped = true;
        synchronized (clock) {
            clock.notifyAll();
        }
        runner.shutdown();
        try {
            runner.awaitTermination(200, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        new ArrayList<>(active).forEach(Active::heal);
        heals.shutdown();
        try {
            heals.awaitTermination(200, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        world.healAll();
    }

    /** Faults started, by kind. */
    public Map<String, Integer> startedByKind() {
        return sorted(started);
    }

    /** Planned faults not started because too many were active or their target was busy, by kind. */
    public Map<String, Integer> skippedByKind() {
        return sorted(skipped);
    }

    private static Map<String, Integer> sorted(Map<String, Integer> counts) {
        Map<String, Integer> sorted = new LinkedHashMap<>();
        counts.keySet().stream().sorted().forEach(key -> sorted.put(key, counts.get(key)));
        return Collections.unmodifiableMap(sorted);
    }

    @Override
    public void close() {
        stopped = true;
        runner.shutdownNow();
        heals.shutdownNow();
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }

    /** A started fault and how to heal it (once; the heal is recorded when it is done). */
    private final class Active {
        private final Fault fault;
        private final String target;
        private final String detail;
        private final java.util.concurrent.Callable<String> healing;
        private final AtomicBoolean healed = new AtomicBoolean();

        Active(Fault fault, String target, String detail, java.util.concurrent.Callable<String> healing) {
            this.fault = fault;
            this.target = target;
            this.detail = detail;
            this.healing = healing;
        }

        void heal() {
            if (!healed.compareAndSet(false, true)) {
                return;
            }
            String outcome;
            try {
                outcome = healing.call();
            } catch (Exception e) {
                outcome = "heal failed: " + e;
            }
            record(fault.id(), target, "heal: " + outcome);
            active.remove(this);
        }
    }
}
