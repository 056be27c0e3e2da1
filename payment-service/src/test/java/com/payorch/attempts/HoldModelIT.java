package com.payorch.attempts;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.gateway.GatewayOutcome;
import com.payorch.payments.GatewayOutcomes;
import com.payorch.payments.HoldRequests;
import com.payorch.payments.Payment;
import com.payorch.payments.PaymentQueries;
import com.payorch.payments.PaymentStateChanges;
import com.payorch.payments.TransitionOrigin;
import com.payorch.payments.TransitionSource;
import com.payorch.recovery.HoldExpiry;
import com.payorch.recovery.HoldRecovery;
import com.payorch.recovery.StuckPaymentRecovery;
import com.payorch.statemachine.PaymentStatus;
import com.payorch.testsupport.ApiTest;
import com.payorch.testsupport.MoneyInvariant;
import com.payorch.testsupport.MoneyInvariant.Violation;
import com.payorch.testsupport.OwnSchema;
import com.payorch.testsupport.SandboxFaults;
import com.payorch.testsupport.TestDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;
import reactor.core.publisher.Mono;

/**
 * A seeded model-based test of holds (issue 23), in the style of {@link AttemptModelIT}: for one manual-capture
 * payment at a time, random interleavings of the sandbox authorising, webhooks (fresh, duplicated, reordered, late),
 * captures (full or partial, some with the sandbox's answer lost, some repeated under the same key as a client
 * would after a lost answer), cancels (some answers lost), a capture racing a cancel, captures the sandbox settles as
 * failed, expiry (the expiry job {@link HoldExpiry} with the authorisation about to lapse, or a cancel or capture
 * started as it would) and the recovery of what a hold recorded and did not hear back about ({@link HoldRecovery},
 * or the capture or the release sent again directly as it would). After every step: the status
 * is one the life cycle allows and a terminal one stays, captured <= authorised (the row and the sandbox), the booking
 * activated at most once and cancelled at most once, at the sandbox one capture per payment (plus one per capture that
 * failed) under the key that names its number, never captured and released both, and a COMPLETED payment's captured
 * amount is the sandbox's. At the end every word the sandbox owes is delivered and the money invariant is checked.
 * A failure names the seed and the steps so far: rerun one with {@code -Dholds.seed=N} ({@code -Dholds.seeds=N}
 * runs seeds 1..N).
 */
@TestPropertySource(properties = {
        // The sandbox settles nothing by itself: the test settles as a step. Recovery runs only as a step.
        "payments.gateway.sandbox.webhook-delay=PT1H",
        "payments.recovery.pending-after=PT0S",
        "payments.recovery.processing-after=PT0S",
        "payments.recovery.interval=PT1H"})
@OwnSchema(HoldModelIT.SCHEMA)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class HoldModelIT extends ApiTest {

    static final String SCHEMA = "hold_model_tests";
    private static final int SEEDS = Integer.getInteger("holds.seeds", 100);
    private static final int STEPS = 20;
    private static final long AMOUNT = 12000;
    private static final Set<String> STATUSES = Set.of("PENDING", "PROCESSING", "AUTHORIZED", "CAPTURING",
            "COMPLETED", "CANCELLED");
    private static final Set<String> TERMINAL = Set.of("COMPLETED", "CANCELLED");
    private static final Duration WAIT = Duration.ofSeconds(10);

    @Autowired
    SandboxFaults faults;
    @Autowired
    StuckPaymentRecovery recovery;
    @Autowired
    PaymentQueries payments;
    @Autowired
    PaymentStateChanges stateChanges;
    @Autowired
    HoldRequests holds;
    @Autowired
    GatewayOutcomes outcomes;
    @Autowired
    HoldRecovery holdRecovery;
    @Autowired
    HoldExpiry holdExpiry;

    private record SandboxCharge(String id, String status, int captures, @Nullable String captureKey,
                                 @Nullable Long captureAmount, @Nullable Long amountCaptured) {
    }

    private record Sent(String id, String body) {
    }

    /** What one seed's run remembers: webhooks sent, a request to repeat, captures the sandbox failed. */
    private static final class World {
        final List<String> steps = new ArrayList<>(List.of("create (manual)"));
        final Map<String, Sent> sent = new LinkedHashMap<>();
        int capturesFailed;
        /** The sandbox's capture count when each failed capture failed: the number its webhook names. */
        final List<Integer> failedCaptures = new ArrayList<>();
        @Nullable String lastStatus;
        String @Nullable [] lastRequest;
        long stepsRun;
    }

    private long totalSteps;

    @Test
    void holdInvariantsHoldAfterEveryStepOfEveryInterleaving() throws Exception {
        Integer only = Integer.getInteger("holds.seed");
        long started = System.nanoTime();
        for (int seed = only != null ? only : 1; seed <= (only != null ? only : SEEDS); seed++) {
            run(seed);
        }
        System.out.printf("HoldModelIT: %d seeds, %d steps in %d ms%n", only != null ? 1 : SEEDS, totalSteps,
                Duration.ofNanos(System.nanoTime() - started).toMillis());
    }

    private void run(long seed) throws Exception {
        Random random = new Random(seed);
        World world = new World();
        String booking = unique("bk");
        String paymentId = createPaymentFromBody("""
                {"bookingId": "%s", "amount": %d, "currency": "JPY", "paymentMethod": "pm_card_ok",
                 "captureMethod": "manual", "customerEmail": "guest@example.com", "description": "Room 101"}"""
                .formatted(booking, AMOUNT));
        check(seed, world, paymentId, booking);
        for (int i = 0; i < STEPS; i++) {
            try {
                world.steps.add(step(random, paymentId, world));
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError("seed " + seed + ": step " + (i + 1) + " failed after " + world.steps, e);
            }
            world.stepsRun++;
            check(seed, world, paymentId, booking);
        }
        deliverEveryWordOwed(paymentId, world);
        check(seed, world, paymentId, booking);
        checkTheMoneyInvariant(seed, world, paymentId);
        totalSteps += world.stepsRun;
    }

    private String step(Random random, String paymentId, World world) {
        SandboxCharge charge = charge(paymentId);
        switch (random.nextInt(16)) {
            case 0, 1 -> {
                if (charge != null && charge.status().equals("processing")) {
                    sandboxSql("update sandbox_charges set status = 'authorized', updated_at = now() where id = $1",
                            charge.id());
                    return "the sandbox authorises";
                }
                return "nothing to authorise";
            }
            case 2, 3 -> {
                if (charge == null) {
                    return "no charge to send a webhook about";
                }
                boolean late = random.nextInt(4) == 0;
                String status = late ? lateStatus(random, charge, world) : charge.status();
                int failed = status.equals("capture_failed") ? late
                        ? world.failedCaptures.get(random.nextInt(world.failedCaptures.size())) : charge.captures() : 0;
                return (late ? "late " : "") + webhook(paymentId, charge, status, failed, world);
            }
            case 4 -> {
                if (world.sent.isEmpty()) {
                    return "no webhook to redeliver";
                }
                List<Sent> all = new ArrayList<>(world.sent.values());
                Sent again = all.get(random.nextInt(all.size()));
                sendWebhook(again.id(), again.body()).expectStatus().isOk()
                        .expectBody().json("{\"status\":\"duplicate\"}", true);
                return "redelivery of " + again.id();
            }
            case 5, 6 -> {
                Long amount = random.nextBoolean() ? null : 1 + (long) random.nextInt((int) AMOUNT);
                // The answer is lost only when the capture will reach the sandbox (an armed fault would wait).
                boolean lost = random.nextInt(3) == 0 && count("select count(*) from payments where id = $1"
                        + " and status = 'AUTHORIZED' and cancel_requested_at is null", paymentId) == 1;
                if (lost) {
                    faults.loseNextCaptureResponse();
                }
                String key = unique("capture");
                String body = amount == null ? "{}" : "{\"amount\": " + amount + "}";
                world.lastRequest = new String[] {"capture", key, body};
                int status = post("/v1/payments/" + paymentId + "/capture", key, body);
                assertThat(status).as("capture answers").isIn(200, 409, 502);
                return "capture " + (amount == null ? "all" : amount) + (lost ? " (answer lost)" : "") + " -> "
                        + status;
            }
            case 7 -> {
                boolean lost = random.nextInt(3) == 0 && count("select count(*) from payments where id = $1"
                        + " and status in ('PENDING', 'PROCESSING', 'AUTHORIZED') and cancel_requested_at is null"
                        + " and capture_amount is null", paymentId) == 1;
                if (lost) {
                    faults.loseNextCancelResponse();
                }
                String key = unique("cancel");
                String body = random.nextBoolean() ? "{}" : "{\"reason\": \"guest cancelled\"}";
                world.lastRequest = new String[] {"cancel", key, body};
                int status = post("/v1/payments/" + paymentId + "/cancel", key, body);
                assertThat(status).as("cancel answers").isIn(200, 409, 502);
                return "cancel" + (lost ? " (answer lost)" : "") + " -> " + status;
            }
            case 8 -> {
                if (world.lastRequest == null) {
                    return "no request to repeat";
                }
                String[] again = world.lastRequest;
                int status = post("/v1/payments/" + paymentId + "/" + again[0], again[1], again[2]);
                assertThat(status).as(again[0] + " repeated answers").isIn(200, 409, 502);
                return again[0] + " repeated under its key -> " + status;
            }
            case 9 -> {
                String captureKey = unique("capture");
                String cancelKey = unique("cancel");
                CompletableFuture<Integer> capture = CompletableFuture.supplyAsync(() ->
                        post("/v1/payments/" + paymentId + "/capture", captureKey, "{}"));
                CompletableFuture<Integer> cancel = CompletableFuture.supplyAsync(() ->
                        post("/v1/payments/" + paymentId + "/cancel", cancelKey, "{}"));
                assertThat(List.of(capture.join(), cancel.join())).as("capture and cancel answer")
                        .allMatch(s -> s == 200 || s == 409 || s == 502);
                return "capture racing cancel -> " + capture.join() + " / " + cancel.join();
            }
            case 10, 11 -> {
                if (charge == null || !charge.status().equals("capturing")) {
                    return "no capture to settle";
                }
                if (random.nextInt(3) == 0) {
                    sandboxSql("update sandbox_charges set status = 'capture_failed', failure_reason ="
                            + " 'capture_declined', amount_captured = null, updated_at = now() where id = $1",
                            charge.id());
                    world.capturesFailed++;
                    world.failedCaptures.add(charge.captures());
                    return "the sandbox fails capture " + charge.captures();
                }
                sandboxSql("update sandbox_charges set status = 'succeeded', failure_reason = null,"
                        + " amount_captured = capture_amount, updated_at = now() where id = $1", charge.id());
                return "the sandbox settles capture " + charge.captures() + " of " + charge.captureAmount();
            }
            case 12 -> {
                if (random.nextBoolean()) {
                    // The expiry job with the default policy (cancel), the authorisation about to lapse.
                    db.sql("update payments set authorization_expires_at = now() where id = $1"
                            + " and authorization_expires_at is not null").bind(0, paymentId).then().block(WAIT);
                    return "the expiry job: " + holdExpiry.applyPolicy().block(WAIT) + " acted on";
                }
                boolean capture = random.nextInt(3) == 0;
                return "expiry (" + (capture ? "capture" : "cancel") + "): " + expire(paymentId, capture);
            }
            case 13 -> {
                return "the hold recovery job: " + holdRecovery.resendCaptures().block(WAIT) + " captures, "
                        + holdRecovery.resendCancels().block(WAIT) + " cancels resent";
            }
            case 14 -> {
                return "hold recovery: " + recoverHold(paymentId);
            }
            default -> {
                recovery.reconcileProcessing().block(WAIT);
                return "reconcile";
            }
        }
    }

    /** A state the charge went through before its current one: its webhook arrives late, out of order. */
    private static String lateStatus(Random random, SandboxCharge charge, World world) {
        List<String> earlier = new ArrayList<>(List.of("processing"));
        if (!charge.status().equals("processing") && (charge.captures() > 0 || !charge.status().equals("cancelled"))) {
            earlier.add("authorized");
        }
        if (!world.failedCaptures.isEmpty()) {
            earlier.add("capture_failed");
        }
        return earlier.get(random.nextInt(earlier.size()));
    }

    /** The sandbox's webhook of {@code status} about the charge (its id as the sandbox names it): fresh or again. */
    private String webhook(String paymentId, SandboxCharge charge, String status, int failedCapture, World world) {
        String type = switch (status) {
            case "capturing" -> "authorized";
            case "succeeded" -> "captured";
            default -> status;
        };
        String id = "msg_" + charge.id() + "_" + type + (type.equals("capture_failed") ? "_" + failedCapture : "");
        StringBuilder data = new StringBuilder("{\"paymentId\": \"%s\", \"chargeId\": \"%s\", \"amount\": %d,"
                .formatted(paymentId, charge.id(), AMOUNT) + " \"currency\": \"JPY\"");
        if (type.equals("capture_failed")) {
            data.append(", \"failureReason\": \"capture_declined\"");
        }
        if (type.equals("captured")) {
            data.append(", \"amountCaptured\": ").append(charge.amountCaptured());
        }
        String body = "{\"type\": \"payment." + type + "\", \"data\": " + data + "}}";
        Sent before = world.sent.get(id);
        if (before != null) {
            body = before.body();
        }
        String answer = new String(sendWebhook(id, body).expectStatus().isOk().expectBody().returnResult()
                .getResponseBodyContent());
        world.sent.putIfAbsent(id, new Sent(id, body));
        return "webhook payment." + type + (before != null ? " again" : "") + " -> " + answer;
    }

    /** As the expiry job would: a cancel (recorded, then the release sent) or a capture of all of it. */
    private String expire(String paymentId, boolean capture) {
        Payment payment = payment(paymentId);
        if (payment.status() != PaymentStatus.AUTHORIZED || payment.hold().cancelRequested()) {
            return "nothing to expire (" + payment.status() + ")";
        }
        TransitionOrigin origin = new TransitionOrigin(TransitionSource.RECOVERY, "hold-expiry");
        Mono<Payment> recorded = capture
                ? stateChanges.startCapture(payment, payment.amount(), origin).map(c -> c.payment())
                : stateChanges.requestCancel(payment, "authorization_expiring");
        return recorded
                .flatMap(p -> (capture ? holds.sendCapture(p) : holds.sendCancel(p))
                        .flatMap(outcome -> applied(p, outcome, origin)))
                .map(status -> status)
                .onErrorResume(e -> Mono.just("lost the race: " + e.getClass().getSimpleName()))
                .block(WAIT);
    }

    /** As the recovery job would: the capture in flight or the release recorded, sent again under its key. */
    private String recoverHold(String paymentId) {
        Payment payment = payment(paymentId);
        TransitionOrigin origin = new TransitionOrigin(TransitionSource.RECOVERY, "hold-recovery");
        Mono<Optional<GatewayOutcome>> send = HoldRequests.captureInFlight(payment) ? holds.sendCapture(payment)
                : HoldRequests.cancelInFlight(payment) ? holds.sendCancel(payment) : null;
        if (send == null) {
            return "nothing in flight (" + payment.status() + ")";
        }
        return send.flatMap(outcome -> applied(payment, outcome, origin))
                .onErrorResume(e -> Mono.just("no answer: " + e.getMessage()))
                .block(WAIT);
    }

    private Mono<String> applied(Payment payment, Optional<GatewayOutcome> outcome, TransitionOrigin origin) {
        if (outcome.isEmpty()) {
            return Mono.just("not sent");
        }
        return payments.findAnyMerchant(payment.id())
                .flatMap(current -> outcomes.apply(current, outcome.get(), origin))
                .map(result -> outcome.get().status() + " -> " + result.kind() + " " + result.payment().status());
    }

    private void check(long seed, World world, String paymentId, String booking) {
        String context = "seed " + seed + " after " + world.steps;
        String status = statusOf(paymentId);
        assertThat(status).as("a status the hold's life cycle allows, " + context).isIn(STATUSES);
        if (world.lastStatus != null && TERMINAL.contains(world.lastStatus)) {
            assertThat(status).as("a terminal status stays, " + context).isEqualTo(world.lastStatus);
        }
        world.lastStatus = status;
        long[] books = db.sql("select p.amount_captured,"
                        + " (select count(*) from events e where e.payment_id = p.id and e.type = 'booking.activated'),"
                        + " (select count(*) from events e where e.payment_id = p.id and e.type = 'booking.cancelled'),"
                        + " (select count(*) from bookings b where b.id = $2 and b.status = 'ACTIVE')"
                        + " from payments p where p.id = $1")
                .bind(0, paymentId)
                .bind(1, booking)
                .map(row -> new long[] {row.get(0, Long.class), row.get(1, Long.class), row.get(2, Long.class),
                        row.get(3, Long.class)})
                .one().block(WAIT);
        long captured = books[0];
        assertThat(captured).as("captured <= authorised, " + context).isBetween(0L, AMOUNT);
        assertThat(books[1]).as("the booking activated at most once, " + context).isLessThanOrEqualTo(1);
        assertThat(books[2]).as("the booking cancelled at most once, " + context).isLessThanOrEqualTo(1);
        if (Set.of("AUTHORIZED", "CAPTURING", "COMPLETED").contains(status)) {
            assertThat(books[3]).as("a hold or its capture holds the booking, " + context).isOne();
            assertThat(books[1]).as("activated once at AUTHORIZED, " + context).isOne();
        }
        SandboxCharge charge = charge(paymentId);
        assertThat(charge).as("one sandbox charge for the payment (one attempt), " + context).isNotNull();
        assertThat(charge.captures()).as("one capture at the sandbox (plus one per capture it failed), " + context)
                .isLessThanOrEqualTo(world.capturesFailed + 1);
        if (charge.captures() > 0) {
            // The service numbers its captures (ones the sandbox refused too): the key names a number no lower
            // than the sandbox's count of the captures it accepted.
            assertThat(charge.captureKey()).as("capture n under the key that names n, " + context)
                    .startsWith(paymentId + "-capture-");
            assertThat(Integer.parseInt(charge.captureKey().substring((paymentId + "-capture-").length())))
                    .as("capture n under the key that names n, " + context).isGreaterThanOrEqualTo(charge.captures());
        }
        if (charge.amountCaptured() != null) {
            assertThat(charge.amountCaptured()).as("the sandbox captured <= authorised, " + context)
                    .isBetween(1L, AMOUNT);
            assertThat(charge.status()).as("captured, so never released, " + context).isEqualTo("succeeded");
        }
        if (status.equals("COMPLETED")) {
            assertThat(charge.amountCaptured()).as("COMPLETED with what the sandbox captured, " + context)
                    .isEqualTo(captured);
        }
        if (status.equals("CANCELLED")) {
            assertThat(charge.status()).as("CANCELLED once the sandbox released the hold, " + context)
                    .isEqualTo("cancelled");
            assertThat(captured).as("a released hold took nothing, " + context).isZero();
        }
    }

    /** Every capture settled, the recorded capture or release sent again, every state's webhook delivered. */
    private void deliverEveryWordOwed(String paymentId, World world) {
        for (int round = 0; round < 2; round++) {
            recoverHold(paymentId);
            SandboxCharge charge = charge(paymentId);
            if (charge.status().equals("processing")) {
                sandboxSql("update sandbox_charges set status = 'authorized', updated_at = now() where id = $1",
                        charge.id());
            }
            if (charge.status().equals("capturing")) {
                sandboxSql("update sandbox_charges set status = 'succeeded', failure_reason = null,"
                        + " amount_captured = capture_amount, updated_at = now() where id = $1", charge.id());
            }
            charge = charge(paymentId);
            world.steps.add("at the end: " + webhook(paymentId, charge, charge.status(), charge.captures(), world));
            world.steps.add("at the end: " + recoverHold(paymentId));
        }
    }

    private void checkTheMoneyInvariant(long seed, World world, String paymentId) throws SQLException {
        try (Connection connection = connection()) {
            List<Violation> violations = MoneyInvariant.check(MoneyInvariant.sandboxCharges(connection),
                    MoneyInvariant.Books.read(connection), false).stream()
                    .filter(v -> paymentId.equals(v.paymentId())).toList();
            assertThat(violations).as("the money invariant, seed " + seed + " after " + world.steps).isEmpty();
        }
    }

    private int post(String path, String key, String body) {
        return client.post().uri(path)
                .header("Authorization", "Bearer " + DEMO_KEY)
                .header("Idempotency-Key", key)
                .header("Content-Type", "application/json")
                .bodyValue(body)
                .exchange().returnResult(Void.class).getStatus().value();
    }

    private Payment payment(String paymentId) {
        return payments.findAnyMerchant(paymentId).block(WAIT);
    }

    private @Nullable SandboxCharge charge(String paymentId) {
        return db.sql("select id, status, captures, capture_key, capture_amount, amount_captured from sandbox_charges"
                        + " where payment_id = $1")
                .bind(0, paymentId)
                .map(row -> new SandboxCharge(row.get("id", String.class), row.get("status", String.class),
                        row.get("captures", Integer.class), row.get("capture_key", String.class),
                        row.get("capture_amount", Long.class), row.get("amount_captured", Long.class)))
                .one().block(WAIT);
    }

    private void sandboxSql(String sql, String chargeId) {
        db.sql(sql).bind(0, chargeId).then().block(WAIT);
    }

    private static Connection connection() throws SQLException {
        TestDatabase database = TestDatabase.get();
        Connection connection = DriverManager.getConnection(database.jdbcUrl(), database.username(),
                database.password());
        connection.setSchema(SCHEMA);
        return connection;
    }
}
