package com.payorch.disputes;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.testsupport.ApiTest;
import com.payorch.testsupport.DecisionOrder;
import com.payorch.testsupport.ServiceInstances;
import com.payorch.testsupport.TestQueries;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.r2dbc.core.DatabaseClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Refunds racing dispute reports over three service instances on one database: each payment (USD 100.00, captured)
 * gets eight refunds of 15.00 and two disputes (40.00 and 30.00, each report delivered twice to other instances under
 * other webhook ids) all at once. A dispute is never refused (the bank has already taken the money), so a refund
 * granted before a dispute may leave refunded + disputed above the captured amount; what must hold is that every
 * refund granted after a dispute fits in what the disputes left: judged in the order the payment row's lock decided
 * them, which the outbox's sequence records (each writes its event under the lock). And: one dispute row per
 * dispute reference, one {@code dispute.opened} each, the payment row's sums equal to its rows', no 5xx.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DisputesRacingRefundsInstancesIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final long CAPTURED = 10_000;
    private static final int PAYMENTS = 6;
    private static final int REFUNDS = 8;
    private static final long REFUND = 1_500;
    private static final long[] DISPUTES = {4_000, 3_000};

    private ServiceInstances instances;
    private TestQueries queries;
    private DatabaseClient db;

    @BeforeAll
    void startThreeInstances() {
        instances = ServiceInstances.start(3, "disputes_racing_refunds_instances",
                List.of("--payments.gateway.sandbox.webhook-secret=" + ApiTest.WEBHOOK_SECRET));
        queries = instances.queries();
        db = instances.context(0).getBean(DatabaseClient.class);
    }

    @AfterAll
    void stopInstances() {
        instances.close();
    }

    @Test
    void refundsGrantedAfterADisputeFitInWhatItLeftAndEachDisputeIsOneRow() {
        int refundsAfterADispute = 0;
        for (int p = 0; p < PAYMENTS; p++) {
            String paymentId = completedPayment(p);
            String chargeId = queries.text("select id from sandbox_charges where payment_id = $1", paymentId);

            List<Mono<Integer>> work = new ArrayList<>();
            for (int r = 0; r < REFUNDS; r++) {
                work.add(refund(r, paymentId));
            }
            for (int d = 0; d < DISPUTES.length; d++) {
                String body = disputeOpened(paymentId, chargeId, chargeId + "-dispute-" + d, DISPUTES[d]);
                work.add(webhook(d, "msg_" + UUID.randomUUID(), body));
                work.add(webhook(d + 1, "msg_" + UUID.randomUUID(), body));
            }
            if (p % 2 == 1) {
                // Every other payment has its first dispute decided before the race: refunds surely come after one.
                assertThat(work.remove(REFUNDS).block(WAIT)).isEqualTo(200);
            }
            List<Integer> statuses = Flux.fromIterable(work).flatMap(call -> call, work.size())
                    .collectList().block(WAIT);

            assertThat(statuses).as("refunds 201 or 409, webhooks 200; never a 5xx").containsOnly(200, 201, 409);
            assertThat(queries.count("select count(*) from disputes where payment_id = $1", paymentId))
                    .isEqualTo(DISPUTES.length);
            assertThat(queries.count("select count(*) from events where payment_id = $1 and type = 'dispute.opened'",
                    paymentId)).isEqualTo(DISPUTES.length);
            refundsAfterADispute += assertRefundsAfterDisputesFit(paymentId);
        }
        assertThat(refundsAfterADispute).as("refunds granted after a dispute (the check is not vacuous)")
                .isPositive();
    }

    /**
     * Replays the payment's decisions in outbox order: each refund granted after a dispute fits in captured - refunds -
     * disputes. Answers how many refunds were granted after a dispute.
     */
    private int assertRefundsAfterDisputesFit(String paymentId) {
        DecisionOrder.Replayed replayed = DecisionOrder.assertEveryRefundFit(db, paymentId, CAPTURED);
        long reserved = replayed.reserved();
        long refundRows = queries.count("select coalesce(sum(amount), 0) from refunds where payment_id = $1"
                + " and status in ('PENDING', 'SUCCEEDED')", paymentId);
        assertThat(reserved).as("refund.created events and refund rows").isEqualTo(refundRows);
        assertThat(queries.count("select amount_reserved from payments where id = $1", paymentId))
                .isEqualTo(refundRows);
        assertThat(queries.count("select amount_disputed from payments where id = $1", paymentId))
                .isEqualTo(DISPUTES[0] + DISPUTES[1]);
        return replayed.refundsAfterADispute();
    }

    private String completedPayment(int i) {
        String body = """
                {"bookingId": "bk_%s", "amount": %d, "currency": "USD", "paymentMethod": "pm_card_ok"}"""
                .formatted(UUID.randomUUID(), CAPTURED);
        String paymentId = instances.createPayment(i, ApiTest.DEMO_KEY, body);
        String chargeId = queries.text("select id from sandbox_charges where payment_id = $1", paymentId);
        String succeeded = """
                {"type": "payment.succeeded", "data": {"paymentId": "%s", "chargeId": "%s", "amount": %d,
                 "currency": "USD"}}""".formatted(paymentId, chargeId, CAPTURED);
        assertThat(webhook(i + 1, "msg_" + UUID.randomUUID(), succeeded).block(WAIT)).isEqualTo(200);
        assertThat(queries.statusOf(paymentId)).isEqualTo("COMPLETED");
        return paymentId;
    }

    private Mono<Integer> refund(int i, String paymentId) {
        return instances.client(i).post().uri("/v1/payments/" + paymentId + "/refunds")
                .header("Authorization", "Bearer " + ApiTest.DEMO_KEY)
                .header("Idempotency-Key", "key_" + UUID.randomUUID())
                .header("Content-Type", "application/json")
                .bodyValue("{\"amount\": " + REFUND + "}")
                .exchangeToMono(response -> response.releaseBody().thenReturn(response.statusCode().value()));
    }

    private Mono<Integer> webhook(int i, String webhookId, String body) {
        return instances.sandboxWebhook(i, ApiTest.WEBHOOK_SECRET, webhookId, body);
    }

    private static String disputeOpened(String paymentId, String chargeId, String disputeId, long amount) {
        return """
                {"type": "dispute.opened", "data": {"paymentId": "%s", "chargeId": "%s", "disputeId": "%s",
                 "amount": %d, "currency": "USD", "reason": "fraudulent", "evidenceDueBy": "2026-12-20T10:00:00Z"}}"""
                .formatted(paymentId, chargeId, disputeId, amount);
    }
}
