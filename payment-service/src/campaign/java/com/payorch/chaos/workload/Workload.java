package com.payorch.chaos.workload;

import com.payorch.chaos.history.History;
import com.payorch.chaos.workload.Gateways.Message;
import com.payorch.chaos.workload.Known.Payment;
import com.payorch.chaos.workload.Known.Replayable;
import com.payorch.chaos.workload.Plan.Kind;
import com.payorch.chaos.workload.Plan.Step;
import com.payorch.chaos.workload.Requests.Answer;
import com.payorch.chaos.workload.Requests.Request;
import com.payorch.chaos.workload.WorkloadTargets.Merchant;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;

/**
 * The campaign's clients: {@code clients} threads, each following its own seeded {@link Plan} (creates with
 * duplicate retries of the same key, replays, reused keys, retries of FAILED payments, refunds, reads, gateway
 * webhooks redelivered), and the gateways' side ({@link Gateways}, process {@code psp}) delivering what the PSP
 * fakes and the sandbox have to say. Every request is recorded in the {@link History} (INVOKE, then ANSWERED or
 * LOST). An instance that is down costs a LOST entry and the client goes on: a lost request is sent again with the
 * same key (to the same or another instance), as a client would.
 *
 * <p>Processes: client {@code n} is {@code "cn"}; the extra requests it sends at the same moment (a double click,
 * racing refunds, one webhook to two instances) are {@code "cn.2"}, {@code "cn.3"}, … so that no process ever has
 * two requests open and each INVOKE pairs with the next completion of its process.
 */
public final class Workload {

    /** How long a client waits for an answer before it records the request LOST. */
    public static final Duration CLIENT_TIMEOUT = Duration.ofMillis(2_500);

    /** How long {@link #run} waits for the clients' last steps once the duration is over. */
    private static final Duration FINISH = Duration.ofSeconds(30);

    /** The longest a round of the gateways' side may take (it goes on in the next round). */
    private static final Duration ROUND = Duration.ofSeconds(5);

    private volatile Duration settle = Duration.ofSeconds(20);

    private final WorkloadTargets targets;
    private final History history;
    private final long seed;
    private final int clients;
    private final String tag;
    private volatile ExecutorService lanes;
    private final Map<Integer, Plan> plans = new java.util.concurrent.ConcurrentHashMap<>();
    private final Requests requests;
    private final Known known = new Known();
    private final Gateways gateways;
    private final CustomerActions customerActions;
    private volatile boolean stopping;

    public Workload(WorkloadTargets targets, History history, long seed, int clients) {
        this.targets = targets;
        this.history = history;
        this.seed = seed;
        this.clients = clients;
        // Keys and fresh booking ids name the run, so runs against one database never meet.
        this.tag = Long.toString(System.currentTimeMillis() % 1_000_000_000L, 36)
                + Long.toString(Math.floorMod(seed, 1296L), 36);
        this.requests = new Requests(targets.instanceBaseUrls(), history, CLIENT_TIMEOUT);
        this.gateways = new Gateways(targets, requests, known, seed);
        this.customerActions = new CustomerActions(requests, known, this::untilAnswered, this::all);
    }

    /**
     * Runs the clients until {@code duration} has passed, then waits for their last requests; blocks. Another run
     * goes on where this one ended (the clients' plans continue; what they learnt is kept); the summary counts all.
     */
    public Summary run(Duration duration) {
        long deadline = System.nanoTime() + duration.toNanos();
        stopping = false;
        lanes = Executors.newCachedThreadPool(daemons("workload-lane"));
        List<Thread> threads = new ArrayList<>();
        for (int c = 1; c <= clients; c++) {
            int client = c;
            threads.add(daemons("workload-c").newThread(() -> client(client, deadline)));
        }
        Thread psp = daemons("workload-psp").newThread(() -> {
            while (!stopping && System.nanoTime() < deadline && !Thread.currentThread().isInterrupted()) {
                gatewayRound(false, Math.min(deadline - System.nanoTime(), ROUND.toNanos()) + System.nanoTime());
                pause(300);
            }
        });
        threads.forEach(Thread::start);
        psp.start();
        long finishBy = deadline + FINISH.toNanos();
        for (Thread thread : threads) {
            join(thread, finishBy);
        }
        join(psp, finishBy);
        stopping = true;
        threads.forEach(Thread::interrupt);
        psp.interrupt();
        threads.forEach(thread -> join(thread, System.nanoTime() + Duration.ofSeconds(5).toNanos()));
        join(psp, System.nanoTime() + Duration.ofSeconds(5).toNanos());
        lanes.shutdown();
        try {
            // A lane still sending records its completion before run returns.
            lanes.awaitTermination(Math.max(requests.timeout().toMillis(),
                    CustomerActions.BROWSER_PATIENCE.toMillis()) * 2, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        settleGateways(settle);
        history.flush();
        return summary();
    }

    /**
     * How long a client waits for an answer before it records the request LOST (default {@link #CLIENT_TIMEOUT}):
     * short, so that time-outs happen under faults.
     */
    public Workload clientTimeout(Duration timeout) {
        requests.timeout(timeout);
        return this;
    }

    /**
     * How long {@link #run} lets the gateways' side settle and deliver what is left at the end (default 20 s);
     * {@link #settleGateways} can be called again afterwards.
     */
    public Workload settleWithin(Duration atMost) {
        this.settle = atMost;
        return this;
    }

    /**
     * Settles at the fakes every charge still pending and delivers every gateway message not acknowledged yet,
     * round after round, until none is left or {@code atMost} has passed (then some stay unacknowledged: call it
     * again once the faults are healed). {@link #run} ends with it.
     *
     * @return whether nothing was left
     */
    public boolean settleGateways(Duration atMost) {
        long until = System.nanoTime() + atMost.toNanos();
        boolean done = false;
        while (!done && System.nanoTime() < until && !Thread.currentThread().isInterrupted()) {
            long left = until - System.nanoTime();
            done = gatewayRound(true, System.nanoTime() + Math.min(left, ROUND.toNanos())) == 0;
            if (!done) {
                pause(300);
            }
        }
        history.flush();
        return done;
    }

    /**
     * Keeps the gateways' side going in the background until closed: pending charges at the fakes are settled at
     * once and every message is delivered until acknowledged. For the recovery horizon after the faults are healed,
     * when the service may still submit payments whose create was lost, or refund orphaned charges, and their
     * webhooks have yet to come. Call after {@link #run}.
     */
    public Background gatewaysInBackground() {
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        Thread thread = daemons("workload-psp-background").newThread(() -> {
            while (!stop.get() && !Thread.currentThread().isInterrupted()) {
                gatewayRound(true, System.nanoTime() + ROUND.toNanos());
                pause(300);
            }
        });
        thread.start();
        return () -> {
            stop.set(true);
            join(thread, System.nanoTime() + ROUND.plus(requests.timeout()).toNanos());
            thread.interrupt();
            join(thread, System.nanoTime() + requests.timeout().toNanos());
            history.flush();
        };
    }

    /** Something running in the background until closed. */
    public interface Background extends AutoCloseable {
        @Override
        void close();
    }

    /** One round of the gateways' side; a failure of it (a body it could not read) is reported and skipped. */
    private int gatewayRound(boolean now, long untilNanos) {
        try {
            return gateways.round(now, untilNanos);
        } catch (RuntimeException e) {
            System.err.println("workload: a gateway round failed, the next one goes on: " + e);
            return 1;
        }
    }

    /** The outcomes counted so far. */
    public Summary summary() {
        return new Summary(requests.outcomes());
    }

    /** @param outcomes count per "operation outcome", e.g. "create 201", "create lost" */
    public record Summary(Map<String, Long> outcomes) {
    }

    // ---- one client

    private void client(int client, long deadline) {
        Plan plan = plans.computeIfAbsent(client, c -> new Plan(seed, c));
        String process = "c" + client;
        while (!stopping && System.nanoTime() < deadline && !Thread.currentThread().isInterrupted()) {
            Step step = plan.next();
            try {
                perform(process, client, step);
            } catch (RuntimeException e) {
                // A body the client could not read must not stop it; the history has the answer.
            }
            pause(step.thinkMillis());
        }
    }

    private void perform(String process, int client, Step step) {
        switch (step.kind()) {
            case CREATE -> create(process, client, step);
            case REPLAY -> replay(process, client, step);
            case MISMATCH -> mismatch(process, client, step);
            case RETRY -> retry(process, client, step);
            case REFUND -> refund(process, client, step);
            case READ -> read(process, step);
            case WEBHOOK -> webhook(process, client, step);
            case HOLD -> hold(process, client, step);
        }
    }

    private void create(String process, int client, Step step) {
        Merchant merchant = merchant(step);
        String booking = step.hotBooking() >= 0 ? "bk-" + tag + "-hot" + step.hotBooking()
                : "bk-" + tag + "-c" + client + "-" + step.index();
        // A share of the sandbox's creates place holds (the Stripe and Adyen fakes' holds are not in this campaign).
        boolean manual = merchant.routing().trim().equals("sandbox") && step.share() <= Plan.MANUAL_SHARE;
        // Another share waits for its customer (3-D Secure), who then answers on the sandbox's page, or not.
        boolean customerAction = !manual && CustomerActions.applies(merchant, step);
        String paymentMethod = manual ? (step.tokenRoll() < 80 ? "pm_card_ok" : step.tokenRoll() < 90
                ? "pm_card_declined" : "pm_card_capture_fails")
                : customerAction ? CustomerActions.paymentMethod(step) : paymentMethod(merchant, step.tokenRoll());
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("bookingId", booking);
        body.put("amount", step.currency().equals("JPY") ? step.amount() * 10 : step.amount());
        body.put("currency", step.currency());
        body.put("paymentMethod", paymentMethod);
        if (step.withEmail()) {
            body.put("customerEmail", "guest-" + booking + "@example.com");
        }
        body.put("metadata", Map.of("client", process, "step", Integer.toString(step.index())));
        if (manual) {
            body.put("captureMethod", "manual");
        }
        if (customerAction) {
            body.put("returnUrl", CustomerActions.RETURN_URL);
        }
        String key = key(client, step, "p");
        Request request = new Request("create", step.instances().get(0), "POST", "/v1/payments",
                idempotent(merchant, key), Known.JSON.writeValueAsString(body));
        List<Answer> answers = switch (step.variant()) {
            case Plan.CREATE_DOUBLE_CLICK -> concurrently(process, step.copies(),
                    lane -> request.to(step.instances().get(lane % 3)));
            case Plan.CREATE_OTHER_INSTANCE -> {
                // A client that gave up waiting too early: the same request again, to another instance.
                Answer first = requests.send(process, request);
                pause(step.delayMillis() / 4);
                yield List.of(first, untilAnswered(process, request.to(other(request.instance()))));
            }
            default -> List.of(untilAnswered(process, request));
        };
        if (answers.stream().noneMatch(Answer::ok) && answers.stream().anyMatch(a -> a.lost() || a.status() == 409
                && a.body().contains("idempotency_request_in_progress"))) {
            answers = List.of(untilAnswered(process, request.to(step.instances().get(1))));
        }
        for (Answer answer : answers) {
            if (answer.ok()) {
                known.payment(merchant, answer.body());
                known.replayable(request, merchant, key);
            }
        }
        if (customerAction) {
            answers.stream().filter(Answer::ok).findFirst().ifPresent(answer ->
                    customerActions.act(process, step, merchant, answer.body(), key(client, step, "a")));
        }
    }

    private void replay(String process, int client, Step step) {
        Replayable original = known.pickReplayable(step.pick(), r -> true);
        if (original == null) {
            create(process, client, step);
            return;
        }
        Request request = original.request().as(original.request().operation() + "-replay")
                .to(step.instances().get(0));
        if (step.variant() == 0) {
            // The IETF draft's form of the key: a quoted string is the same key.
            Map<String, String> headers = new LinkedHashMap<>(request.headers());
            headers.put("Idempotency-Key", "\"" + original.idempotencyKey() + "\"");
            request = new Request(request.operation(), request.instance(), request.method(), request.path(), headers,
                    request.body());
        }
        untilAnswered(process, request);
    }

    private void mismatch(String process, int client, Step step) {
        Replayable original = known.pickReplayable(step.pick(), r -> r.request().operation().equals("create"));
        if (original == null) {
            create(process, client, step);
            return;
        }
        JsonNode body = Known.JSON.readTree(original.request().body());
        Map<String, Object> changed = Known.JSON.convertValue(body, Map.class);
        changed.put("amount", body.path("amount").asLong(0) + 1);
        Request request = new Request("create-mismatch", step.instances().get(0), "POST", "/v1/payments",
                original.request().headers(), Known.JSON.writeValueAsString(changed));
        untilAnswered(process, request);
    }

    private void retry(String process, int client, Step step) {
        // A payment that waited for its customer is not retried: its customer is gone (and the checker judges it
        // by that one wait).
        Payment payment = known.pickPayment(step.pick(), p -> p.status.equals("FAILED")
                && !CustomerActions.isCustomerActionMethod(p.paymentMethod));
        if (payment == null) {
            read(process, step);
            return;
        }
        String key = key(client, step, "r");
        Map<String, String> headers = idempotent(payment.merchant, key);
        if (step.variant() == Plan.RETRY_IF_MATCH) {
            headers.put("If-Match", "\"" + payment.version + "\"");
        } else if (step.variant() == Plan.RETRY_STALE_IF_MATCH) {
            headers.put("If-Match", "\"" + Math.max(1, payment.version - 1) + "\"");
        }
        Request request = new Request("retry", step.instances().get(0), "POST",
                "/v1/payments/" + payment.id + "/retry", headers, "{}");
        List<Answer> answers = step.variant() == Plan.RETRY_DOUBLE_CLICK
                ? concurrently(process, step.copies(), lane -> request.to(step.instances().get(lane % 3)))
                : List.of(untilAnswered(process, request));
        for (Answer answer : answers) {
            if (answer.ok()) {
                known.payment(payment.merchant, answer.body());
                known.replayable(request, payment.merchant, key);
            }
        }
    }

    private void refund(String process, int client, Step step) {
        // Mostly payments with something left to refund; one in five may be refunded in full already.
        boolean anyCompleted = Math.floorMod(step.pick() >> 16, 5) == 0;
        Payment payment = known.pickPayment(step.pick(),
                p -> p.status.equals("COMPLETED") && (anyCompleted || p.refunded < p.amount));
        if (payment == null) {
            read(process, step);
            return;
        }
        int copies = step.variant() == Plan.REFUND_RACE ? step.copies() : 1;
        List<Request> sent = new ArrayList<>();
        List<Supplier<Answer>> calls = new ArrayList<>();
        for (int lane = 0; lane < copies; lane++) {
            Map<String, Object> body = new LinkedHashMap<>();
            switch (step.variant()) {
                case Plan.REFUND_PARTIAL -> body.put("amount", Math.max(1, payment.amount * step.share() / 100));
                // Racing refunds of 30..69 % each: two or more together exceed the amount.
                case Plan.REFUND_RACE -> body.put("amount",
                        Math.max(1, payment.amount * (30 + (step.share() + lane * 13) % 40) / 100));
                case Plan.REFUND_EXCEED -> body.put("amount", payment.amount + step.share());
                default -> {
                    // no amount: all that is still refundable
                }
            }
            body.put("reason", "requested_by_customer");
            String key = key(client, step, "f" + lane);
            Request request = new Request("refund", step.instances().get(lane % 3), "POST",
                    "/v1/payments/" + payment.id + "/refunds", idempotent(payment.merchant, key),
                    Known.JSON.writeValueAsString(body));
            sent.add(request);
            String laneProcess = lane == 0 ? process : process + "." + (lane + 1);
            calls.add(() -> untilAnswered(laneProcess, request));
        }
        List<Answer> answers = all(calls);
        for (int i = 0; i < answers.size(); i++) {
            if (answers.get(i).ok()) {
                known.refund(payment, answers.get(i).body());
                String key = sent.get(i).headers().get("Idempotency-Key");
                known.replayable(sent.get(i), payment.merchant, key);
            }
        }
    }

    /**
     * Captures (all, or a share) or cancels one of the holds the client knows, each request resent under its key
     * until answered (any instance); a capture racing a cancel on two instances. Captures go to AUTHORIZED holds,
     * cancels to holds AUTHORIZED or not yet authorised; one in five goes to any hold (a 409 is then the answer).
     */
    private void hold(String process, int client, Step step) {
        boolean any = Math.floorMod(step.pick() >> 16, 5) == 0;
        boolean capture = step.variant() == Plan.HOLD_CAPTURE_ALL || step.variant() == Plan.HOLD_CAPTURE_PART;
        Payment payment = known.pickPayment(step.pick(), p -> p.manual() && (any || (capture
                ? p.status.equals("AUTHORIZED")
                : p.status.equals("AUTHORIZED") || p.status.equals("PROCESSING") || p.status.equals("PENDING"))));
        if (payment == null) {
            read(process, step);
            return;
        }
        List<Request> sent = new ArrayList<>();
        String captureBody = step.variant() == Plan.HOLD_CAPTURE_PART
                ? "{\"amount\": " + Math.max(1, payment.amount * step.share() / 100) + "}" : "{}";
        if (step.variant() != Plan.HOLD_CANCEL) {
            sent.add(new Request("capture", step.instances().get(0), "POST", "/v1/payments/" + payment.id
                    + "/capture", idempotent(payment.merchant, key(client, step, "h")), captureBody));
        }
        if (step.variant() == Plan.HOLD_CANCEL || step.variant() == Plan.HOLD_RACE) {
            sent.add(new Request("cancel", step.instances().get(1), "POST", "/v1/payments/" + payment.id
                    + "/cancel", idempotent(payment.merchant, key(client, step, "x")),
                    "{\"reason\": \"guest cancelled\"}"));
        }
        List<Supplier<Answer>> calls = new ArrayList<>();
        for (int lane = 0; lane < sent.size(); lane++) {
            Request request = sent.get(lane);
            String laneProcess = lane == 0 ? process : process + "." + (lane + 1);
            calls.add(() -> untilAnswered(laneProcess, request));
        }
        for (Answer answer : all(calls)) {
            if (answer.ok()) {
                known.payment(payment.merchant, answer.body());
            }
        }
    }

    private void read(String process, Step step) {
        Payment payment = known.pickPayment(step.pick(), p -> true);
        int instance = step.instances().get(0);
        if (payment == null) {
            Merchant merchant = merchant(step);
            requests.send(process, new Request("read", instance, "GET", "/v1/payments?limit=5", auth(merchant),
                    null));
            return;
        }
        Merchant merchant = payment.merchant;
        String path = switch (step.variant()) {
            case 1 -> "/v1/payments?bookingId=" + payment.bookingId;
            case 2 -> "/v1/bookings/" + payment.bookingId;
            case 3 -> "/v1/events?paymentId=" + payment.id;
            case 4 -> "/v1/payments/" + payment.id + "/refunds";
            case 5 -> "sandbox".equals(payment.connector) ? "/v1/sandbox/charges?paymentId=" + payment.id
                    : "/v1/payments/" + payment.id;
            default -> "/v1/payments/" + payment.id;
        };
        if (step.variant() == 6 && targets.merchants().size() > 1) {
            // Another merchant's payment: 404, never its data.
            List<Merchant> others = targets.merchants().stream().filter(m -> !m.id().equals(payment.merchant.id()))
                    .toList();
            merchant = others.get((int) Math.floorMod(step.pick() >> 8, (long) others.size()));
        }
        Answer answer = requests.send(process, new Request("read", instance, "GET", path, auth(merchant), null));
        if (answer.ok() && path.equals("/v1/payments/" + payment.id)) {
            known.payment(merchant, answer.body());
        }
    }

    private void webhook(String process, int client, Step step) {
        Message message = gateways.pickDelivered(step.pick());
        if (message == null) {
            read(process, step);
            return;
        }
        int instance = step.instances().get(0);
        switch (step.variant()) {
            case Plan.WEBHOOK_CONCURRENT -> concurrently(process, step.copies(),
                    lane -> gateways.request(message, step.instances().get(lane % 3), 0));
            case Plan.WEBHOOK_REORDERED -> {
                List<Message> about = new ArrayList<>(gateways.deliveredAbout(message));
                java.util.Collections.reverse(about);
                for (Message each : about) {
                    requests.send(process, gateways.request(each, instance, 0));
                }
            }
            case Plan.WEBHOOK_LATE -> {
                pause(step.delayMillis());
                // Signed 4 minutes ago, as a delivery that waited in the PSP's queue (within the 5 minutes allowed).
                requests.send(process, gateways.request(message, instance, 240));
            }
            default -> requests.send(process, gateways.request(message, instance, 0));
        }
    }

    // ---- sending

    /**
     * Sends until answered: a LOST request (or one answered 409 "in progress" or 5xx) is sent again with the same
     * key, alternating instances, at most four times in all.
     */
    private Answer untilAnswered(String process, Request request) {
        Request next = request;
        Answer answer = null;
        for (int attempt = 0; attempt < 4 && !Thread.currentThread().isInterrupted(); attempt++) {
            answer = requests.send(process, next);
            boolean inProgress = answer.status() == 409 && answer.body().contains("idempotency_request_in_progress");
            if (!answer.lost() && !inProgress && answer.status() < 500) {
                return answer;
            }
            if (stopping) {
                return answer;
            }
            pause(inProgress ? 500 : 100L << attempt);
            next = attempt % 2 == 0 ? next.to(other(next.instance())) : next;
        }
        return answer;
    }

    private List<Answer> concurrently(String process, int copies, java.util.function.IntFunction<Request> lane) {
        List<Supplier<Answer>> calls = new ArrayList<>();
        for (int i = 0; i < copies; i++) {
            String laneProcess = i == 0 ? process : process + "." + (i + 1);
            Request request = lane.apply(i);
            calls.add(() -> requests.send(laneProcess, request));
        }
        return all(calls);
    }

    private List<Answer> all(List<Supplier<Answer>> calls) {
        if (calls.size() == 1) {
            return List.of(calls.get(0).get());
        }
        List<Future<Answer>> futures = calls.stream().map(call -> lanes.submit(call::get)).toList();
        List<Answer> answers = new ArrayList<>();
        for (Future<Answer> future : futures) {
            try {
                // Every lane records its own completion (a lost one included) before it returns.
                answers.add(future.get());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                futures.forEach(this::awaitQuietly);
                return answers;
            } catch (Exception e) {
                answers.add(new Answer(-1, Map.of(), "", e.toString()));
            }
        }
        return answers;
    }

    private void awaitQuietly(Future<Answer> future) {
        try {
            future.get(requests.timeout().toMillis() * 2, TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            // the lane records its own completion
        }
    }

    // ---- request parts

    static Map<String, String> auth(Merchant merchant) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Authorization", "Bearer " + merchant.apiKey());
        return headers;
    }

    private static Map<String, String> idempotent(Merchant merchant, String key) {
        Map<String, String> headers = auth(merchant);
        headers.put("Idempotency-Key", key);
        headers.put("Content-Type", "application/json");
        return headers;
    }

    private String key(int client, Step step, String what) {
        return "wl-" + tag + "-c" + client + "-" + step.index() + what;
    }

    private Merchant merchant(Step step) {
        List<Merchant> merchants = targets.merchants();
        return merchants.get(step.merchant() % merchants.size());
    }

    private int other(int instance) {
        return (instance + 1) % requests.instances();
    }

    /**
     * A payment method for the merchant's first connector, so that some payments succeed, some are declined (and
     * can be retried), some stay pending at the gateway until its webhook, and some have refunds that fail.
     */
    static String paymentMethod(Merchant merchant, int roll) {
        String first = merchant.routing().split(",")[0].trim();
        boolean failover = merchant.routing().contains(",");
        return switch (first) {
            case "sandbox" -> roll < 50 ? "pm_card_ok" : roll < 55 ? "pm_card_disputed" : roll < 80 ? "pm_card_declined"
                    : roll < 95 ? "pm_card_refund_fails" : "pm_card_ok_wl";
            case "adyen" -> roll < 60 ? "pm_card_visa" : roll < 80 ? "pm_card_chargeDeclined" : "pm_card_processing";
            default -> roll < 55 ? "pm_card_visa" : roll < 75 ? "pm_card_chargeDeclined" : roll < 90 || failover
                    ? "pm_card_processing" : roll < 95 ? "pm_card_refundFails" : "pm_card_authenticationRequired";
        };
    }

    /**
     * The clients' own pace: think time between steps, back-off before a resend, a webhook delivered late on purpose.
     * Part of the workload's behaviour, not a wait for a condition (those are the caller's, with Awaitility).
     */
    private static void pause(long millis) {
        if (millis <= 0) {
            return;
        }
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void join(Thread thread, long untilNanos) {
        long left = untilNanos - System.nanoTime();
        if (left <= 0) {
            return;
        }
        try {
            thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static ThreadFactory daemons(String name) {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, name + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
