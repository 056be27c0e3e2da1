package com.payorch.refunds;

import static com.payorch.refunds.ScriptedRefunds.Answer.LOST_AFTER_REFUNDING;
import static com.payorch.refunds.ScriptedRefunds.Answer.LOST_BEFORE_REFUNDING;
import static com.payorch.refunds.ScriptedRefunds.Answer.REFUSED;
import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.gateway.ConnectorRoutes;
import com.payorch.gateway.PaymentGateway;
import com.payorch.gateway.RefundRequest;
import com.payorch.payments.RetryingTransaction;
import com.payorch.recovery.RecoveryProperties;
import com.payorch.recovery.RefundReconciler;
import com.payorch.recovery.WorkClaims;
import com.payorch.refunds.internal.RefundStore;
import com.payorch.testsupport.OwnSchema;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.annotation.Import;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * Refunds in doubt (issue 22, finding 4; contract v3 "Refunds in doubt and reversed"): a send whose answer was lost
 * keeps the refund PENDING and counts it; a later refusal of a resend fails it only when the connector confirms it
 * holds no such refund, otherwise it needs attention and is not sent again; past the connector's key lifetime a
 * refund is only looked up. An orphaned charge's refund that fails is retried with a new refund until one succeeds.
 * The sandbox cannot lose an answer or refuse on demand: {@link ScriptedRefunds} does, in front of it. The service's
 * own reconciler is kept away (`refund-pending-after` = 1 h); each test drives a reconciler of its own, over the same
 * beans, that looks at once.
 */
@Import(ScriptedRefunds.Configuration.class)
@TestPropertySource(properties = {
        "payments.gateway.sandbox.webhook-delay=PT0.2S",
        "payments.recovery.refund-pending-after=PT1H"})
@OwnSchema("refund_doubt_tests")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class RefundsInDoubtIT extends RefundApiTest {

    private static final Duration LIFETIME = Duration.ofHours(23);

    @Autowired
    ScriptedRefunds scripted;
    @Autowired
    RefundQueries refundQueries;
    @Autowired
    Refunds refunds;
    @Autowired
    RefundStore refundStore;
    @Autowired
    PaymentGateway gateway;
    @Autowired
    RetryingTransaction transaction;
    @Autowired
    WorkClaims claims;
    @Autowired
    Clock clock;

    /** A reconciler that looks at every PENDING refund at once; its connector honours keys for {@link #LIFETIME}. */
    private RefundReconciler reconciler() {
        Duration now = Duration.ofMillis(1);
        RecoveryProperties lookAtOnce = new RecoveryProperties(Duration.ofSeconds(30), now, Duration.ofHours(24),
                Duration.ofSeconds(5), 100, Duration.ofHours(1), now, now);
        ConnectorRoutes routes = new ConnectorRoutes() {
            @Override
            public List<String> route(String merchantId, String currency) {
                return List.of("sandbox");
            }

            @Override
            public Optional<Duration> keyLifetime(String connector) {
                return Optional.of(LIFETIME);
            }
        };
        return new RefundReconciler(refundQueries, refunds,
                new RefundSends(gateway, routes, refundStore, refunds, clock), gateway, transaction, claims,
                lookAtOnce, clock);
    }

    private void reconcile() {
        reconciler().settlePending().block(WAIT);
    }

    private String onlyRefundOf(String paymentId) {
        return db.sql("select id from refunds where payment_id = $1").bind(0, paymentId)
                .map(row -> row.get(0, String.class)).one().block(WAIT);
    }

    /** A refund of the whole payment whose send's answer is lost: 502, the refund stays PENDING, counted in doubt. */
    private String refundWithLostAnswer(String paymentId, String key, ScriptedRefunds.Answer lost) {
        scripted.answerNextSend(paymentId, lost);
        json(refund(paymentId, key, "{\"amount\": 12000}"), 502);
        String refundId = onlyRefundOf(paymentId);
        assertThat(refundStatus(refundId)).isEqualTo("PENDING");
        assertThat(count("select sends_in_doubt::bigint from refunds where id = $1", refundId)).isEqualTo(1);
        return refundId;
    }

    @Test
    void aRefusalOfTheRetriedRequestAfterALostAnswerLeavesTheRefundPendingAndNotRefundableAgain() {
        String paymentId = completedPayment(unique("bk"), "pm_card_ok");
        String key = unique("rk");
        String refundId = refundWithLostAnswer(paymentId, key, LOST_AFTER_REFUNDING);

        // the client retries its request; the connector refuses the resend, but the first send did refund
        scripted.answerNextSend(paymentId, REFUSED);
        JsonNode retried = json(refund(paymentId, key, "{\"amount\": 12000}"), 201);

        assertThat(retried.path("id").asText()).isEqualTo(refundId);
        assertThat(retried.path("status").asText()).isEqualTo("PENDING");
        assertThat(attentionOf(refundId)).isEqualTo(Refunds.REFUSED_AFTER_DOUBT);
        assertThat(count("select amount_reserved from payments where id = $1", paymentId)).isEqualTo(12000);
        // not refundable again: a second refund would give the money back twice
        refund(paymentId, unique("rk"), "{\"amount\": 1}").expectStatus().isEqualTo(409).expectBody()
                .jsonPath("$.code").isEqualTo("amount_exceeds_refundable");

        // the connector's look-up settles it: the first send's refund succeeded; it is never sent a third time
        Awaitility.await().atMost(WAIT).until(() -> {
            reconcile();
            return "SUCCEEDED".equals(refundStatus(refundId));
        });
        assertThat(attentionOf(refundId)).isNull();
        assertThat(amountRefunded(paymentId)).isEqualTo(12000);
        assertThat(scripted.sendsOf(refundId)).isEqualTo(2);
        assertThat(count("select count(*) from sandbox_refunds where refund_id = $1", refundId)).isEqualTo(1);
    }

    @Test
    void theReconcilerSendsARefundRefusedAfterADoubtNoMoreWhileItsConnectorCannotTell() {
        String paymentId = completedPayment(unique("bk"), "pm_card_ok");
        String refundId = refundWithLostAnswer(paymentId, unique("rk"), LOST_AFTER_REFUNDING);
        scripted.lookUpsFail(paymentId, true);
        scripted.answerNextSend(paymentId, REFUSED);

        reconcile();
        assertThat(scripted.sendsOf(refundId)).isEqualTo(2);
        assertThat(refundStatus(refundId)).isEqualTo("PENDING");
        assertThat(attentionOf(refundId)).isEqualTo(Refunds.REFUSED_AFTER_DOUBT);

        reconcile();
        reconcile();
        assertThat(scripted.sendsOf(refundId)).isEqualTo(2);
        assertThat(refundStatus(refundId)).isEqualTo("PENDING");

        scripted.lookUpsFail(paymentId, false);
        Awaitility.await().atMost(WAIT).until(() -> {
            reconcile();
            return "SUCCEEDED".equals(refundStatus(refundId));
        });
        assertThat(scripted.sendsOf(refundId)).isEqualTo(2);
    }

    @Test
    void aRefusalAfterALostAnswerFailsTheRefundWhenTheConnectorConfirmsItHoldsNone() {
        String paymentId = completedPayment(unique("bk"), "pm_card_ok");
        String refundId = refundWithLostAnswer(paymentId, unique("rk"), LOST_BEFORE_REFUNDING);
        assertThat(count("select count(*) from sandbox_refunds where refund_id = $1", refundId)).isZero();

        scripted.answerNextSend(paymentId, REFUSED);
        reconcile();

        JsonNode failed = get("/v1/refunds/" + refundId);
        assertThat(failed.path("status").asText()).isEqualTo("FAILED");
        assertThat(failed.path("failureReason").asText()).isEqualTo("connector_refused");
        assertThat(attentionOf(refundId)).isNull();
        // confirmed: nothing was refunded, so the amount is refundable again
        json(refund(paymentId, unique("rk"), "{\"amount\": 12000}"), 201);
    }

    @Test
    void pastTheConnectorsKeyLifetimeARefundIsLookedUpButNeverSentAgain() {
        String paymentId = completedPayment(unique("bk"), "pm_card_ok");
        String refundId = refundWithLostAnswer(paymentId, unique("rk"), LOST_BEFORE_REFUNDING);
        db.sql("update refunds set created_at = created_at - interval '2 days' where id = $1").bind(0, refundId)
                .fetch().rowsUpdated().block(WAIT);

        reconcile();
        reconcile();

        assertThat(scripted.sendsOf(refundId)).isEqualTo(1);
        assertThat(refundStatus(refundId)).isEqualTo("PENDING");
        assertThat(attentionOf(refundId)).isEqualTo(Refunds.PAST_KEY_LIFETIME);
    }

    @Test
    void aFailedOrphanedChargeRefundIsRetriedWithANewRefundUntilOneSucceeds() {
        String paymentId = createPayment(unique("bk"), "pm_card_refund_fails");
        String attempt1 = latestChargeOf(paymentId);
        sendWebhook(unique("msg"), webhookBody("payment.failed", paymentId, attempt1, 12000, "JPY"))
                .expectStatus().isOk();
        client.post().uri("/v1/payments/" + paymentId + "/retry").header("Authorization", "Bearer " + DEMO_KEY)
                .header("Idempotency-Key", unique("retry")).exchange().expectStatus().isOk();
        sendWebhook(unique("msg"), webhookBody("payment.succeeded", paymentId, attempt1, 12000, "JPY"))
                .expectStatus().isOk();
        String first = onlyRefundOf(paymentId);

        // the sandbox declines refunds of this card: the orphaned charge's refund fails, and is not the end
        Awaitility.await().atMost(WAIT).until(() -> {
            reconcile();
            return count("select count(*) from refunds where payment_id = $1 and status = 'FAILED'", paymentId) >= 2;
        });
        assertThat(attentionOf(first)).isEqualTo(Refunds.ORPHAN_REFUND_FAILED);
        assertThat(scripted.sent()).filteredOn(request -> request.paymentId().equals(paymentId))
                .isNotEmpty().allMatch(RefundRequest::orphanedCharge);

        // the card accepts refunds again: the next new refund succeeds and ends the story
        db.sql("update sandbox_charges set payment_method = 'pm_card_ok' where id = $1").bind(0, attempt1)
                .fetch().rowsUpdated().block(WAIT);
        Awaitility.await().atMost(WAIT).until(() -> {
            reconcile();
            return count("select count(*) from refunds where payment_id = $1 and status = 'SUCCEEDED'", paymentId)
                    == 1;
        });
        assertThat(count("select count(*) from refunds where payment_id = $1 and status <> 'FAILED'", paymentId))
                .isEqualTo(1);
        assertThat(count("select count(*) from refunds where payment_id = $1 and attention_reason is not null",
                paymentId)).isZero();
        assertThat(count("select count(*) from refunds where payment_id = $1 and not counts_against_payment"
                + " and attempt = 1 and amount = 12000", paymentId)).isGreaterThanOrEqualTo(3);
        assertThat(count("select count(*) from sandbox_refunds where charge_id = $1 and status = 'succeeded'",
                attempt1)).isEqualTo(1);
        assertThat(count("select amount_reserved + amount_refunded from payments where id = $1", paymentId))
                .isZero();
    }
}
