package com.payorch.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.testsupport.ApiTest;
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
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every kind of delivery about one payment at once, over three service instances on one database. Each webhook's
 * transaction first claims its receipt (a row referencing the payment: a KEY SHARE lock on the payment row) and then
 * writes the payment; two such transactions asking for a lock that conflicts with KEY SHARE deadlock (PostgreSQL
 * 40P01, answered 500). For each payment, first its outcome: payment.processing and payment.succeeded, each also
 * redelivered under another webhook id and once under the same id, racing two refund requests; then its refunds:
 * two PENDING refunds each reported succeeded under two webhook ids, racing two more refund requests, a late
 * payment.succeeded and a dispute reported twice. Never a 5xx, and every change made exactly once.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WebhooksRacingOnePaymentInstancesIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final JsonMapper JSON = new JsonMapper();
    private static final int PAYMENTS = 10;
    private static final long AMOUNT = 10_000;
    private static final long REFUND = 1_000;
    private static final long DISPUTED = 3_000;

    private ServiceInstances instances;
    private TestQueries queries;

    @BeforeAll
    void startThreeInstances() {
        // The sandbox never settles on its own here: each outcome is the webhooks' to apply.
        instances = ServiceInstances.start(3, "webhooks_racing_one_payment_instances",
                List.of("--payments.gateway.sandbox.webhook-secret=" + ApiTest.WEBHOOK_SECRET,
                        "--payments.gateway.sandbox.webhook-delay=PT1H"));
        queries = instances.queries();
    }

    @AfterAll
    void stopInstances() {
        instances.close();
    }

    @Test
    void racingDeliveriesOfOnePaymentAreNeverA5xxAndEachChangeIsMadeOnce() {
        for (int p = 0; p < PAYMENTS; p++) {
            String paymentId = processingPayment(p);
            String chargeId = queries.text("select id from sandbox_charges where payment_id = $1", paymentId);

            assertThat(race(outcomeDeliveries(p, paymentId, chargeId))).as("payment %s, its outcome", paymentId)
                    .isSubsetOf(200, 201, 409);
            assertCompletedOnce(paymentId);
            assertThat(queries.count("select count(*) from webhook_receipts where payment_id = $1", paymentId))
                    .as("one receipt per webhook id").isEqualTo(4);
            assertThat(queries.count("select sum(duplicates) from webhook_receipts where payment_id = $1", paymentId))
                    .as("the redelivery under the same id counted as a duplicate").isEqualTo(1);

            List<String> pending = List.of(refund(p, paymentId, 201), refund(p + 1, paymentId, 201));
            assertThat(race(refundDeliveries(p, paymentId, chargeId, pending))).as("payment %s, its refunds",
                    paymentId).isSubsetOf(200, 201);
            assertCompletedOnce(paymentId);
            for (String refundId : pending) {
                assertThat(queries.text("select status from refunds where id = $1", refundId)).isEqualTo("SUCCEEDED");
                assertThat(queries.count("select count(*) from events where type = 'refund.succeeded'"
                        + " and data->>'refundId' = $1", refundId)).as("refund.succeeded of %s", refundId)
                        .isEqualTo(1);
            }
            long refunds = queries.count("select coalesce(sum(amount), 0) from refunds where payment_id = $1"
                    + " and status in ('PENDING', 'SUCCEEDED')", paymentId);
            assertThat(queries.count("select amount_reserved from payments where id = $1", paymentId))
                    .as("what the payment reserves: its PENDING and SUCCEEDED refunds").isEqualTo(refunds);
            assertThat(queries.count("select amount_refunded from payments where id = $1", paymentId))
                    .isEqualTo(2 * REFUND);
            assertThat(queries.count("select count(*) from disputes where payment_id = $1", paymentId)).isEqualTo(1);
            assertThat(queries.count("select amount_disputed from payments where id = $1", paymentId))
                    .isEqualTo(DISPUTED);
        }
    }

    /** processing and succeeded, each under two webhook ids and succeeded once more under its first id; two refunds. */
    private List<Mono<Integer>> outcomeDeliveries(int p, String paymentId, String chargeId) {
        String processing = paymentWebhook("payment.processing", paymentId, chargeId);
        String succeeded = paymentWebhook("payment.succeeded", paymentId, chargeId);
        String succeededId = "msg_" + UUID.randomUUID();
        List<Mono<Integer>> work = new ArrayList<>();
        work.add(webhook(p, "msg_" + UUID.randomUUID(), processing));
        work.add(webhook(p + 1, "msg_" + UUID.randomUUID(), processing));
        work.add(webhook(p + 2, succeededId, succeeded));
        work.add(webhook(p + 3, "msg_" + UUID.randomUUID(), succeeded));
        work.add(webhook(p + 4, succeededId, succeeded));
        work.add(refundStatus(p + 5, paymentId));
        work.add(refundStatus(p + 6, paymentId));
        return work;
    }

    /** Each pending refund succeeded under two webhook ids; two new refunds; a late success; a dispute, twice. */
    private List<Mono<Integer>> refundDeliveries(int p, String paymentId, String chargeId, List<String> pending) {
        List<Mono<Integer>> work = new ArrayList<>();
        for (int r = 0; r < pending.size(); r++) {
            String body = refundSucceeded(pending.get(r), paymentId, chargeId);
            work.add(webhook(p + 2 * r, "msg_" + UUID.randomUUID(), body));
            work.add(webhook(p + 2 * r + 1, "msg_" + UUID.randomUUID(), body));
        }
        work.add(refundStatus(p + 1, paymentId));
        work.add(refundStatus(p + 2, paymentId));
        work.add(webhook(p, "msg_" + UUID.randomUUID(), paymentWebhook("payment.succeeded", paymentId, chargeId)));
        String dispute = disputeOpened(paymentId, chargeId, chargeId + "-dispute");
        work.add(webhook(p + 1, "msg_" + UUID.randomUUID(), dispute));
        work.add(webhook(p + 2, "msg_" + UUID.randomUUID(), dispute));
        return work;
    }

    private static List<Integer> race(List<Mono<Integer>> work) {
        return Flux.fromIterable(work).flatMap(call -> call, work.size()).collectList().block(WAIT);
    }

    private void assertCompletedOnce(String paymentId) {
        assertThat(queries.statusOf(paymentId)).isEqualTo("COMPLETED");
        assertThat(queries.count("select count(*) from payment_transitions where payment_id = $1"
                + " and to_status = 'COMPLETED'", paymentId)).as("COMPLETED transitions").isEqualTo(1);
        assertThat(queries.count("select count(*) from events where payment_id = $1 and type = 'payment.completed'",
                paymentId)).as("payment.completed events").isEqualTo(1);
    }

    private String processingPayment(int i) {
        String body = """
                {"bookingId": "bk_%s", "amount": %d, "currency": "USD", "paymentMethod": "pm_card_ok"}"""
                .formatted(UUID.randomUUID(), AMOUNT);
        String paymentId = instances.createPayment(i, ApiTest.DEMO_KEY, body);
        assertThat(queries.statusOf(paymentId)).isEqualTo("PROCESSING");
        return paymentId;
    }

    /** A refund made before the race (the expected status asserted): its id. */
    private String refund(int i, String paymentId, int expected) {
        return refundRequest(i, paymentId)
                .exchangeToMono(response -> {
                    assertThat(response.statusCode().value()).isEqualTo(expected);
                    return response.bodyToMono(String.class);
                })
                .map(body -> JSON.readTree(body).path("id").asString())
                .block(WAIT);
    }

    private Mono<Integer> refundStatus(int i, String paymentId) {
        return refundRequest(i, paymentId)
                .exchangeToMono(response -> response.releaseBody().thenReturn(response.statusCode().value()));
    }

    private WebClient.RequestHeadersSpec<?> refundRequest(int i, String paymentId) {
        return instances.client(i).post().uri("/v1/payments/" + paymentId + "/refunds")
                .header("Authorization", "Bearer " + ApiTest.DEMO_KEY)
                .header("Idempotency-Key", "key_" + UUID.randomUUID())
                .header("Content-Type", "application/json")
                .bodyValue("{\"amount\": " + REFUND + "}");
    }

    private Mono<Integer> webhook(int i, String webhookId, String body) {
        return instances.sandboxWebhook(i, ApiTest.WEBHOOK_SECRET, webhookId, body);
    }

    private static String paymentWebhook(String type, String paymentId, String chargeId) {
        return """
                {"type": "%s", "data": {"paymentId": "%s", "chargeId": "%s", "amount": %d, "currency": "USD"}}"""
                .formatted(type, paymentId, chargeId, AMOUNT);
    }

    private static String refundSucceeded(String refundId, String paymentId, String chargeId) {
        return """
                {"type": "refund.succeeded", "data": {"refundId": "%s", "paymentId": "%s", "chargeId": "%s",
                 "amount": %d, "currency": "USD"}}""".formatted(refundId, paymentId, chargeId, REFUND);
    }

    private static String disputeOpened(String paymentId, String chargeId, String disputeId) {
        return """
                {"type": "dispute.opened", "data": {"paymentId": "%s", "chargeId": "%s", "disputeId": "%s",
                 "amount": %d, "currency": "USD", "reason": "fraudulent", "evidenceDueBy": "2026-12-20T10:00:00Z"}}"""
                .formatted(paymentId, chargeId, disputeId, DISPUTED);
    }
}
