import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

/**
 * An open-model (constant arrival rate) load generator for the benchmark: request i is due at start + i / rate,
 * whether or not earlier answers have come back, and its latency is measured from that intended send time. A
 * service that stalls therefore shows the stall in every request that should have been sent meanwhile (no
 * coordinated omission, unlike wrk's closed loop). JDK only; run it with {@code java OpenLoad.java key=value ...}.
 *
 * <p>Arguments: {@code url=} base URL, {@code scenario=} create or mixed (70 % create, 20 % replay of a stored key,
 * 10 % pre-signed webhook: what lua/mixed.lua sends), {@code rate=} requests per second, {@code seconds=} measured
 * time, {@code warmup=} seconds at the same rate before it (sent, not recorded; warms this JVM's HTTP client),
 * {@code run=} prefix that makes keys and bookings unique, {@code apikey=}, {@code replay=} file of stored keys,
 * {@code webhooks=} file of pre-signed webhooks (lines as WebhookSigner.java writes them), {@code timeout=} seconds,
 * {@code maxInFlight=} requests outstanding before new ones count as errors (protects the machine),
 * {@code timeline=} optional CSV path for per-second sent/answered/errors/in-flight.
 *
 * <p>Prints one line {@code OPEN_RESULT key=value ...}: requests, achieved rate, latency p50/p90/p99/p999/max in ms
 * (from the intended send time, over the successful requests; "-" when none succeeded), the same p99 from the actual send time (service time), errors by kind, and the
 * largest delay of a send behind its schedule (the generator's own lag: if it is large, the generator was starved).
 */
public class OpenLoad {

    public static void main(String[] args) throws Exception {
        var opts = new java.util.HashMap<String, String>();
        for (String a : args) {
            int eq = a.indexOf('=');
            if (eq < 0) throw new IllegalArgumentException("expected key=value, got " + a);
            opts.put(a.substring(0, eq), a.substring(eq + 1));
        }
        new OpenLoad(opts).run();
    }

    private final URI base;
    private final String scenario;
    private final double rate;
    private final int seconds;
    private final int warmup;
    private final String run;
    private final String auth;
    private final List<String> replayKeys;
    private final List<String[]> webhooks;
    private final Duration timeout;
    private final int maxInFlight;
    private final String timelinePath;
    private final HttpClient client;
    private final SplittableRandom random = new SplittableRandom(42);
    private int createCounter;
    private int replayCursor;
    private int webhookCursor;

    OpenLoad(java.util.Map<String, String> o) throws IOException {
        base = URI.create(require(o, "url"));
        scenario = o.getOrDefault("scenario", "create");
        rate = Double.parseDouble(require(o, "rate"));
        seconds = Integer.parseInt(require(o, "seconds"));
        warmup = Integer.parseInt(o.getOrDefault("warmup", "5"));
        run = o.getOrDefault("run", Long.toString(System.currentTimeMillis()));
        auth = "Bearer " + o.getOrDefault("apikey", "sk_test_demo");
        timeout = Duration.ofMillis((long) (Double.parseDouble(o.getOrDefault("timeout", "5")) * 1000));
        maxInFlight = Integer.parseInt(o.getOrDefault("maxInFlight", "2000"));
        timelinePath = o.get("timeline");
        if (scenario.equals("mixed")) {
            replayKeys = lines(require(o, "replay"));
            webhooks = lines(require(o, "webhooks")).stream().map(l -> l.split("\t", 4)).toList();
        } else if (scenario.equals("create")) {
            replayKeys = List.of();
            webhooks = List.of();
        } else {
            throw new IllegalArgumentException("scenario must be create or mixed");
        }
        // Two threads for the callbacks: the generator shares the cores with the service.
        ExecutorService callbacks = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "open-load-callback");
            t.setDaemon(true);
            return t;
        });
        client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).executor(callbacks)
                .connectTimeout(Duration.ofSeconds(5)).build();
    }

    private static String require(java.util.Map<String, String> o, String key) {
        String v = o.get(key);
        if (v == null) throw new IllegalArgumentException("missing " + key + "=");
        return v;
    }

    private static List<String> lines(String path) throws IOException {
        List<String> l = Files.readAllLines(Path.of(path)).stream().filter(s -> !s.isBlank()).toList();
        if (l.isEmpty()) throw new IllegalArgumentException("no lines in " + path);
        return l;
    }

    private HttpRequest create(String key, String booking) {
        String body = "{\"bookingId\":\"" + booking + "\",\"amount\":12000,\"currency\":\"JPY\","
                + "\"paymentMethod\":\"pm_card_ok\"}";
        return HttpRequest.newBuilder(base.resolve("/v1/payments")).timeout(timeout)
                .header("Authorization", auth).header("Idempotency-Key", key)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }

    private HttpRequest next() {
        double x = scenario.equals("mixed") ? random.nextDouble() : 0;
        if (x < 0.7) {
            createCounter++;
            String id = run + "-" + createCounter;
            return create("k" + id, "b" + id);
        } else if (x < 0.9) {
            String key = replayKeys.get(replayCursor++ % replayKeys.size());
            return create(key, "b" + key.substring(1));
        } else {
            String[] w = webhooks.get(webhookCursor++ % webhooks.size());
            return HttpRequest.newBuilder(base.resolve("/v1/webhooks/sandbox")).timeout(timeout)
                    .header("webhook-id", w[0]).header("webhook-timestamp", w[1]).header("webhook-signature", w[2])
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(w[3])).build();
        }
    }

    void run() throws Exception {
        int warmupCount = (int) Math.round(rate * warmup);
        int measured = (int) Math.round(rate * seconds);
        int total = warmupCount + measured;
        long[] latency = new long[measured];      // from the intended send time, ns; -1 = error
        long[] service = new long[measured];      // from the actual send time, ns
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger errStatus = new AtomicInteger(), errTimeout = new AtomicInteger(),
                errIo = new AtomicInteger(), errShed = new AtomicInteger();
        int buckets = warmup + seconds + 60;
        AtomicLongArray sentPerSecond = new AtomicLongArray(buckets), donePerSecond = new AtomicLongArray(buckets),
                errPerSecond = new AtomicLongArray(buckets);
        CountDownLatch finished = new CountDownLatch(total);
        long interval = (long) (1e9 / rate);
        long start = System.nanoTime() + 50_000_000L;
        long maxBehind = 0;
        for (int i = 0; i < total; i++) {
            long due = start + i * interval;
            long now;
            while ((now = System.nanoTime()) < due) {
                LockSupport.parkNanos(due - now);
            }
            if (i >= warmupCount) maxBehind = Math.max(maxBehind, now - due);
            final int idx = i - warmupCount;
            final int second = (int) Math.min(buckets - 1, (due - start) / 1_000_000_000L);
            sentPerSecond.incrementAndGet(second);
            if (inFlight.get() >= maxInFlight) {
                if (idx >= 0) { latency[idx] = -1; errShed.incrementAndGet(); }
                errPerSecond.incrementAndGet(second);
                finished.countDown();
                continue;
            }
            inFlight.incrementAndGet();
            final long sentAt = System.nanoTime();
            client.sendAsync(next(), HttpResponse.BodyHandlers.discarding()).whenComplete((resp, err) -> {
                long end = System.nanoTime();
                inFlight.decrementAndGet();
                int doneSecond = (int) Math.min(buckets - 1, Math.max(0, (end - start) / 1_000_000_000L));
                donePerSecond.incrementAndGet(doneSecond);
                boolean ok = err == null && resp.statusCode() < 400;
                if (!ok) errPerSecond.incrementAndGet(doneSecond);
                if (idx >= 0) {
                    if (ok) {
                        latency[idx] = end - due;
                        service[idx] = end - sentAt;
                    } else {
                        latency[idx] = -1;
                        if (err == null) errStatus.incrementAndGet();
                        else if (err instanceof java.net.http.HttpTimeoutException
                                || err.getCause() instanceof java.net.http.HttpTimeoutException) errTimeout.incrementAndGet();
                        else errIo.incrementAndGet();
                    }
                }
                finished.countDown();
            });
        }
        long sendEnd = System.nanoTime();
        boolean all = finished.await(timeout.toMillis() + 10_000, TimeUnit.MILLISECONDS);
        int missing = all ? 0 : (int) finished.getCount();

        long[] ok = Arrays.stream(latency).filter(v -> v >= 0).sorted().toArray();
        long[] svc = Arrays.stream(service).filter(v -> v > 0).sorted().toArray();
        int errors = errStatus.get() + errTimeout.get() + errIo.get() + errShed.get() + missing;
        double measuredSeconds = (sendEnd - (start + (long) warmupCount * interval)) / 1e9;
        System.out.printf(java.util.Locale.ROOT,
                "OPEN_RESULT scenario=%s target_rps=%.1f requests=%d achieved_rps=%.1f p50_ms=%s p90_ms=%s "
                        + "p99_ms=%s p999_ms=%s max_ms=%s service_p99_ms=%s errors=%d err_status=%d "
                        + "err_timeout=%d err_io=%d err_shed=%d err_unanswered=%d max_send_behind_ms=%.1f%n",
                scenario, rate, measured, measured / measuredSeconds, pct(ok, 50), pct(ok, 90), pct(ok, 99),
                pct(ok, 99.9), pct(ok, 100), pct(svc, 99), errors,
                errStatus.get(), errTimeout.get(), errIo.get(), errShed.get(), missing, maxBehind / 1e6);
        if (timelinePath != null) {
            try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(Path.of(timelinePath)))) {
                w.println("second,recorded,sent,answered,errors");
                for (int s = 0; s < warmup + seconds + 5 && s < buckets; s++) {
                    w.printf("%d,%d,%d,%d,%d%n", s - warmup, s >= warmup ? 1 : 0, sentPerSecond.get(s),
                            donePerSecond.get(s), errPerSecond.get(s));
                }
            }
        }
        System.exit(errors > 0 && ok.length == 0 ? 1 : 0);
    }

    /** The p-th percentile of the successful requests in ms, or "-" when none succeeded (never a misleading 0). */
    private static String pct(long[] sorted, double p) {
        if (sorted.length == 0) return "-";
        int i = (int) Math.ceil(sorted.length * p / 100.0) - 1;
        return String.format(java.util.Locale.ROOT, "%.1f", sorted[Math.max(0, Math.min(sorted.length - 1, i))] / 1e6);
    }
}
