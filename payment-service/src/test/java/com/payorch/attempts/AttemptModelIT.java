package com.payorch.attempts;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.gateway.ConnectorNotification;
import com.payorch.gateway.GatewayStatus;
import com.payorch.recovery.StuckPaymentRecovery;
import com.payorch.webhooks.WebhookApplier;
import com.payorch.webhooks.WebhookOutcome;
import com.payorch.testsupport.ApiTest;
import com.payorch.testsupport.SandboxFaults;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;

/**
 * A seeded model-based test of attempts (issue 8): for one payment at a time, random interleavings of create, retry
 * (some with the submit's answer lost), gateway settlements (and a late success of a superseded attempt), webhooks
 * (fresh, duplicate, stale), reconciling and resubmitting; after every step the invariants are checked against the
 * database. Issue 22 adds the PSP's own misbehaviour: look-ups that fail for longer than give-up-after, look-ups
 * that miss a charge (a give-up on them is followed by the PSP's late success), time passing beyond give-up-after,
 * and notifications that name their attempt. After the last step every word the PSP still owes is delivered, and
 * the v3 invariant is checked: every charge the sandbox took backs the COMPLETED payment on that attempt, or has
 * exactly one orphan refund. A failure names the seed and the steps so far: rerun with {@code -Dattempts.seed=N}.
 */
@TestPropertySource(properties = {
        // The recovery jobs are called by the test as steps, never by their schedule.
        "payments.recovery.pending-after=PT0S",
        "payments.recovery.processing-after=PT0S",
        "payments.recovery.interval=PT1H",
        "payments.gateway.sandbox.webhook-delay=PT1H",
        "spring.r2dbc.properties.schema=attempt_model_tests",
        "spring.flyway.schemas=attempt_model_tests",
        "spring.flyway.default-schema=attempt_model_tests"})
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class AttemptModelIT extends ApiTest {

    private static final int SEEDS = Integer.getInteger("attempts.seeds", 50);
    private static final int STEPS = 12;

    @Autowired
    StuckPaymentRecovery recovery;
    @Autowired
    SandboxFaults faults;
    @Autowired
    WebhookApplier webhooks;

    private record Charge(String id, int attempt, String status) {
    }

    private record Sent(String id, String body) {
    }

    @Test
    void invariantsHoldAfterEveryStepOfEveryInterleaving() {
        Integer only = Integer.getInteger("attempts.seed");
        for (int seed = only != null ? only : 1; seed <= (only != null ? only : SEEDS); seed++) {
            run(seed);
        }
    }

    private void run(long seed) {
        Random random = new Random(seed);
        String booking = unique("bk");
        String paymentId = createPayment(booking, "pm_card_ok");
        List<Sent> sent = new ArrayList<>();
        List<String> steps = new ArrayList<>(List.of("create"));
        check(seed, steps, paymentId, booking);
        for (int i = 0; i < STEPS; i++) {
            try {
                steps.add(step(random, paymentId, sent));
            } catch (AssertionError e) {
                throw new AssertionError("seed " + seed + ": step " + (i + 1) + " failed after " + steps, e);
            }
            check(seed, steps, paymentId, booking);
        }
        faults.lookUps(SandboxFaults.LookUps.TRUTHFUL);
        deliverEveryWordOwed(paymentId);
        checkEveryChargeBacksItsPaymentOrIsRefundedOnce(seed, steps, paymentId);
    }

    private String step(Random random, String paymentId, List<Sent> sent) {
        List<Charge> charges = charges(paymentId);
        Charge any = charges.isEmpty() ? null : charges.get(random.nextInt(charges.size()));
        switch (random.nextInt(13)) {
            case 9 -> {
                SandboxFaults.LookUps how = SandboxFaults.LookUps.values()[random.nextInt(3)];
                faults.lookUps(how);
                return "look-ups " + how;
            }
            case 10 -> {
                db.sql("update payment_attempts set started_at = now() - interval '2 days' where payment_id = $1")
                        .bind(0, paymentId).then().block(Duration.ofSeconds(10));
                return "time passes beyond give-up-after";
            }
            case 11, 12 -> {
                if (any == null || any.status().equals("processing")) {
                    return "no settled charge to name";
                }
                WebhookOutcome outcome = webhooks.apply("sandbox", named(paymentId, any))
                        .block(Duration.ofSeconds(10));
                return "notification naming attempt " + any.attempt() + " " + any.status() + " -> " + outcome;
            }
            case 0, 1 -> {
                if (any != null && any.status().equals("processing")) {
                    String outcome = random.nextBoolean() ? "succeeded" : "failed";
                    settle(any.id(), outcome);
                    return "gateway settles attempt " + any.attempt() + " " + outcome;
                }
                return "gateway has nothing to settle";
            }
            case 2, 3 -> {
                if (any == null) {
                    return "no charge to send a webhook about";
                }
                String type = "payment." + any.status();
                if (random.nextInt(4) == 0) {
                    type = "payment.processing"; // late, out of order
                }
                Sent webhook = new Sent(unique("msg"),
                        webhookBody(type, paymentId, any.id(), 12000, "JPY"));
                sent.add(webhook);
                sendWebhook(webhook.id(), webhook.body()).expectStatus().isOk();
                return "webhook " + type + " about attempt " + any.attempt();
            }
            case 4 -> {
                if (sent.isEmpty()) {
                    return "no webhook to redeliver";
                }
                Sent again = sent.get(random.nextInt(sent.size()));
                sendWebhook(again.id(), again.body()).expectStatus().isOk()
                        .expectBody().json("{\"status\":\"duplicate\"}", true);
                return "redelivery of " + again.id();
            }
            case 5 -> {
                // The answer of the retry's submit is lost only when the retry will submit (the payment is FAILED).
                boolean lost = random.nextBoolean() && "FAILED".equals(statusOf(paymentId));
                if (lost) {
                    faults.loseNextResponse();
                }
                int status = client.post().uri("/v1/payments/" + paymentId + "/retry")
                        .header("Authorization", "Bearer " + DEMO_KEY).header("Idempotency-Key", unique("retry"))
                        .exchange().returnResult(Void.class).getStatus().value();
                assertThat(status).as("retry answers").isIn(200, 409, 502);
                return "retry" + (lost ? " (answer lost)" : "") + " -> " + status;
            }
            case 6 -> {
                recovery.reconcileProcessing().block(Duration.ofSeconds(10));
                return "reconcile";
            }
            case 7 -> {
                recovery.resubmitPending().block(Duration.ofSeconds(10));
                return "resubmit";
            }
            default -> {
                int current = currentAttempt(paymentId);
                for (Charge charge : charges) {
                    if (charge.attempt() < current && charge.status().equals("failed")) {
                        settle(charge.id(), "succeeded");
                        return "gateway: superseded attempt " + charge.attempt() + " took the money after all";
                    }
                }
                return "no superseded failed charge";
            }
        }
    }

    private void check(long seed, List<String> steps, String paymentId, String booking) {
        String context = "seed " + seed + " after " + steps;
        String status = statusOf(paymentId);
        int current = currentAttempt(paymentId);
        Map<Integer, List<Charge>> byAttempt = charges(paymentId).stream()
                .collect(Collectors.groupingBy(Charge::attempt));
        byAttempt.forEach((attempt, charges) ->
                assertThat(charges).as("one charge per attempt, " + context).hasSize(1));
        Charge currentCharge = byAttempt.getOrDefault(current, List.of()).stream().findFirst().orElse(null);
        switch (status) {
            case "PROCESSING" -> assertThat(currentCharge)
                    .as("a PROCESSING payment has a charge for its current attempt, " + context).isNotNull();
            case "COMPLETED" -> assertThat(currentCharge).as("COMPLETED by its current attempt's success, " + context)
                    .isNotNull().extracting(Charge::status).isEqualTo("succeeded");
            default -> { }
        }
        if (status.equals("FAILED") && !"gateway_unreachable".equals(failureReasonOf(paymentId))) {
            assertThat(currentCharge).as("FAILED by its current attempt's failure, " + context)
                    .isNotNull().extracting(Charge::status).isEqualTo("failed");
        }
        assertThat(count("select count(*) from bookings where id = $1 and status = 'ACTIVE'", booking))
                .as("booking active exactly when the payment is COMPLETED, " + context)
                .isEqualTo(status.equals("COMPLETED") ? 1 : 0);
        assertThat(count("select count(*) from events where payment_id = $1 and type = 'booking.activated'",
                paymentId)).as("at most one activation, " + context).isLessThanOrEqualTo(1);
        assertThat(count("select count(*) from (select data->>'attempt' from events where payment_id = $1"
                + " and type = 'charge.orphaned' group by data->>'attempt' having count(*) > 1) twice", paymentId))
                .as("at most one charge.orphaned per attempt, " + context).isZero();
        if (!status.equals("FAILED")) {
            assertThat(count("select count(*) from events where payment_id = $1 and type = 'charge.orphaned'"
                    + " and (data->>'attempt')::int >= $2", paymentId, current))
                    .as("only a superseded attempt's charge, or one of a FAILED payment, is orphaned, " + context)
                    .isZero();
        }
        assertThat(count("select count(*) from refunds r join payments p on p.id = r.payment_id"
                + " where p.id = $1 and p.status = 'COMPLETED' and r.attempt = p.attempt"
                + " and r.reason = 'orphaned_charge'", paymentId))
                .as("the charge backing a COMPLETED payment is never refunded as orphaned, " + context).isZero();
    }

    /** The PSP's word on every settled charge, each naming its attempt, then a look of each recovery job. */
    private void deliverEveryWordOwed(String paymentId) {
        for (Charge charge : charges(paymentId)) {
            if (!charge.status().equals("processing")) {
                webhooks.apply("sandbox", named(paymentId, charge)).block(Duration.ofSeconds(10));
            }
        }
        recovery.reconcileProcessing().block(Duration.ofSeconds(10));
    }

    /** Contract v3: every charge taken backs the COMPLETED payment on its attempt or is refunded exactly once. */
    private void checkEveryChargeBacksItsPaymentOrIsRefundedOnce(long seed, List<String> steps, String paymentId) {
        String context = "seed " + seed + " after " + steps + " and every word delivered";
        String status = statusOf(paymentId);
        int current = currentAttempt(paymentId);
        for (Charge charge : charges(paymentId)) {
            if (!charge.status().equals("succeeded")) {
                continue;
            }
            boolean backsThePayment = status.equals("COMPLETED") && charge.attempt() == current;
            assertThat(count("select count(*) from refunds where payment_id = $1 and attempt = $2"
                    + " and reason = 'orphaned_charge'", paymentId, charge.attempt()))
                    .as("charge of attempt " + charge.attempt() + " (payment " + status + ", attempt " + current
                            + ") backs the payment or is refunded once, " + context)
                    .isEqualTo(backsThePayment ? 0 : 1);
        }
    }

    private ConnectorNotification named(String paymentId, Charge charge) {
        GatewayStatus status = switch (charge.status()) {
            case "succeeded" -> GatewayStatus.SUCCEEDED;
            case "failed" -> GatewayStatus.FAILED;
            default -> GatewayStatus.PROCESSING;
        };
        return new ConnectorNotification(unique("msg"), "payment." + charge.status(), paymentId, charge.attempt(),
                charge.id(), status, 12000, "JPY", status == GatewayStatus.FAILED ? "card_declined" : null, null);
    }

    private String failureReasonOf(String paymentId) {
        return queries.text("select failure_reason from payments where id = $1", paymentId);
    }


    private int currentAttempt(String paymentId) {
        return db.sql("select attempt from payments where id = $1").bind(0, paymentId)
                .map(row -> row.get(0, Integer.class)).one().block(Duration.ofSeconds(10));
    }

    private List<Charge> charges(String paymentId) {
        return db.sql("select id, attempt, status from sandbox_charges where payment_id = $1 order by attempt")
                .bind(0, paymentId)
                .map(row -> new Charge(row.get("id", String.class), row.get("attempt", Integer.class),
                        row.get("status", String.class)))
                .all().collectList().block(Duration.ofSeconds(10));
    }

    private void settle(String chargeId, String status) {
        db.sql("update sandbox_charges set status = $1, failure_reason = case when $1 = 'failed'"
                        + " then 'card_declined' end, updated_at = now() where id = $2")
                .bind(0, status).bind(1, chargeId).then().block(Duration.ofSeconds(10));
    }
}
