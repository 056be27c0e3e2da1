package com.payorch.disputes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.payorch.disputes.DisputeReport.Kind;
import com.payorch.payments.PaymentQueries;
import com.payorch.refunds.AmountExceedsRefundable;
import com.payorch.refunds.Refunds;
import com.payorch.statemachine.DisputeStatus;
import com.payorch.support.UnknownCursor;
import com.payorch.testsupport.ApiTest;
import com.payorch.testsupport.DecisionOrder;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Applying connector dispute reports against real PostgreSQL (issue 25): each report once, out of order, the life
 * cycle's reversals, the payment's `amount_disputed`, and refunds deciding on what disputes left.
 */
class DisputeReportsIT extends ApiTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final long CAPTURED = 12000;

    @Autowired
    private DisputeReports reports;

    @Autowired
    private DisputeQueries disputes;

    @Autowired
    private PaymentQueries payments;

    @Autowired
    private Refunds refunds;

    /** A pm_card_ok payment of JPY 12000, COMPLETED by its sandbox webhook. */
    private String completedPayment() {
        String paymentId = createPayment(unique("bk"), "pm_card_ok");
        sendWebhook(unique("msg"), webhookBody("payment.succeeded", paymentId, CAPTURED, "JPY")).expectStatus().isOk();
        assertThat(statusOf(paymentId)).isEqualTo("COMPLETED");
        return paymentId;
    }

    private static DisputeReport report(String paymentId, String reference, Kind kind, long amount) {
        return new DisputeReport("sandbox", unique("rep"), reference, paymentId, 1, kind, amount, "JPY",
                "fraudulent", Instant.parse("2026-12-31T00:00:00Z"), Instant.now());
    }

    private Dispute apply(DisputeReport report) {
        return reports.apply(report).block(TIMEOUT);
    }

    private long amountDisputed(String paymentId) {
        return payments.find("demo", paymentId).map(payment -> payment.amountDisputed()).block(TIMEOUT);
    }

    private List<String> disputeEvents(String paymentId) {
        return db.sql("select type from events where payment_id = $1 and type like 'dispute.%' order by seq")
                .bind(0, paymentId)
                .map(row -> row.get("type", String.class))
                .all()
                .collectList()
                .block(TIMEOUT);
    }

    @Test
    void theSameReportTwiceIsAppliedOnce() {
        String paymentId = completedPayment();
        DisputeReport opened = report(paymentId, unique("du"), Kind.OPENED, 5000);

        Dispute first = apply(opened);
        Dispute again = apply(opened);

        assertThat(again).isEqualTo(first);
        assertThat(first.id()).startsWith("dp_");
        assertThat(first.status()).isEqualTo(DisputeStatus.OPEN);
        assertThat(first.version()).isEqualTo(1);
        assertThat(first.evidenceDueBy()).isEqualTo(Instant.parse("2026-12-31T00:00:00Z"));
        assertThat(count("select count(*) from disputes where payment_id = $1", paymentId)).isEqualTo(1);
        assertThat(count("select count(*) from dispute_reports where dispute_id = $1", first.id())).isEqualTo(1);
        assertThat(disputeEvents(paymentId)).containsExactly("dispute.opened");
        assertThat(amountDisputed(paymentId)).isEqualTo(5000);
        assertThat(disputes.find("demo", first.id()).block(TIMEOUT)).isEqualTo(first);
        assertThat(disputes.find("other", first.id()).blockOptional(TIMEOUT)).isEmpty();
    }

    @Test
    void openedThenClosedLost() {
        String paymentId = completedPayment();
        String reference = unique("du");

        apply(report(paymentId, reference, Kind.OPENED, 5000));
        Dispute lost = apply(report(paymentId, reference, Kind.LOST, 5000));

        assertThat(lost.status()).isEqualTo(DisputeStatus.LOST);
        assertThat(lost.version()).isEqualTo(2);
        assertThat(disputeEvents(paymentId)).containsExactly("dispute.opened", "dispute.lost");
        assertThat(amountDisputed(paymentId)).isEqualTo(5000);
        assertThat(disputes.ofPayment("demo", paymentId).collectList().block(TIMEOUT)).containsExactly(lost);
        Map<String, Object> data = db.sql("select data->>'status' as status, data->>'id' as id,"
                        + " data->>'version' as version from events where payment_id = $1 and type = 'dispute.lost'")
                .bind(0, paymentId)
                .fetch().one().block(TIMEOUT);
        assertThat(data).containsEntry("status", "LOST").containsEntry("id", lost.id()).containsEntry("version", "2");
    }

    @Test
    void closedWonBeforeItWasReportedOpenedIsCreatedThenWon() {
        String paymentId = completedPayment();
        String reference = unique("du");

        Dispute won = apply(report(paymentId, reference, Kind.WON, 5000));
        Dispute lateOpened = apply(report(paymentId, reference, Kind.OPENED, 5000));

        assertThat(won.status()).isEqualTo(DisputeStatus.WON);
        assertThat(won.version()).isEqualTo(2);
        assertThat(lateOpened).isEqualTo(won);
        assertThat(disputeEvents(paymentId)).containsExactly("dispute.opened", "dispute.won");
        assertThat(amountDisputed(paymentId)).isZero();
    }

    @Test
    void lostThenReversedThenChargedBackAgain() {
        String paymentId = completedPayment();
        String reference = unique("du");

        apply(report(paymentId, reference, Kind.OPENED, 5000));
        assertThat(apply(report(paymentId, reference, Kind.LOST, 5000)).status()).isEqualTo(DisputeStatus.LOST);
        assertThat(amountDisputed(paymentId)).isEqualTo(5000);
        Dispute reversed = apply(report(paymentId, reference, Kind.WON, 5000));
        assertThat(reversed.status()).isEqualTo(DisputeStatus.WON);
        assertThat(amountDisputed(paymentId)).isZero();
        // another report of the same win: refused by the life cycle, nothing changes
        assertThat(apply(report(paymentId, reference, Kind.WON, 5000))).isEqualTo(reversed);
        Dispute second = apply(report(paymentId, reference, Kind.LOST, 5000));

        assertThat(second.status()).isEqualTo(DisputeStatus.LOST);
        assertThat(second.version()).isEqualTo(4);
        assertThat(amountDisputed(paymentId)).isEqualTo(5000);
        assertThat(disputeEvents(paymentId))
                .containsExactly("dispute.opened", "dispute.lost", "dispute.won", "dispute.lost");
    }

    @Test
    void amountDisputedIsTheSumOfOpenAndLostDisputes() {
        String paymentId = completedPayment();

        apply(report(paymentId, unique("du"), Kind.OPENED, 3000));
        apply(report(paymentId, unique("du"), Kind.LOST, 2000));
        apply(report(paymentId, unique("du"), Kind.WON, 4000));

        assertThat(amountDisputed(paymentId)).isEqualTo(5000);
        assertThat(disputes.ofPayment("demo", paymentId).map(Dispute::status).collectList().block(TIMEOUT))
                .containsExactlyInAnyOrder(DisputeStatus.OPEN, DisputeStatus.LOST, DisputeStatus.WON);
    }

    @Test
    void theMerchantsDisputesAreListedNewestFirstByKeyset() {
        String body = paymentBody(unique("bk"));
        String location = postPayment(OTHER_KEY, unique("key"), body).exchange().expectStatus().isCreated()
                .expectBody().returnResult().getResponseHeaders().getLocation().toString();
        String paymentId = location.substring("/v1/payments/".length());
        sendWebhook(unique("msg"), webhookBody("payment.succeeded", paymentId, CAPTURED, "JPY")).expectStatus().isOk();
        Dispute oldest = apply(report(paymentId, unique("du"), Kind.OPENED, 1000));
        Dispute won = apply(report(paymentId, unique("du"), Kind.WON, 1000));
        Dispute newest = apply(report(paymentId, unique("du"), Kind.OPENED, 1000));

        assertThat(disputes.list("other", null, null, 3).collectList().block(TIMEOUT))
                .containsExactly(newest, won, oldest);
        assertThat(disputes.list("other", null, newest.id(), 2).collectList().block(TIMEOUT))
                .containsExactly(won, oldest);
        assertThat(disputes.list("other", DisputeStatus.OPEN, null, 2).collectList().block(TIMEOUT))
                .containsExactly(newest, oldest);
        assertThat(disputes.list("other", DisputeStatus.OPEN, newest.id(), 1).collectList().block(TIMEOUT))
                .containsExactly(oldest);
        // A client walking the OPEN ones whose last seen dispute was closed meanwhile goes on where it was.
        assertThat(disputes.list("other", DisputeStatus.OPEN, won.id(), 1).collectList().block(TIMEOUT))
                .containsExactly(oldest);
        assertThat(disputes.list("demo", null, newest.id(), 1).then(Mono.just("listed"))
                .onErrorResume(UnknownCursor.class, unknown -> Mono.just("unknown cursor")).block(TIMEOUT))
                .isEqualTo("unknown cursor");
    }

    @Test
    void aRefundOfDisputedMoneyIsRefused() {
        String paymentId = completedPayment();
        apply(report(paymentId, unique("du"), Kind.OPENED, CAPTURED));

        client.post().uri("/v1/payments/" + paymentId + "/refunds")
                .header("Authorization", "Bearer " + DEMO_KEY)
                .header("Idempotency-Key", unique("rk"))
                .header("Content-Type", "application/json")
                .bodyValue("{\"amount\": 1}")
                .exchange()
                .expectStatus().isEqualTo(409)
                .expectBody().jsonPath("$.code").isEqualTo("amount_exceeds_refundable");
        assertThat(count("select count(*) from refunds where payment_id = $1", paymentId)).isZero();
    }

    @Test
    void aRefundMayTakeWhatIsNeitherRefundedNorDisputed() {
        String paymentId = completedPayment();
        apply(report(paymentId, unique("du"), Kind.OPENED, 5000));

        assertThat(refunds.create("demo", paymentId, 7001L, null).onErrorResume(AmountExceedsRefundable.class,
                refused -> Mono.empty()).blockOptional(TIMEOUT)).isEmpty();
        assertThat(refunds.create("demo", paymentId, null, null).block(TIMEOUT).amount()).isEqualTo(7000);
    }

    @Test
    void sixteenConcurrentAppliesOfOneReportApplyItOnce() {
        String paymentId = completedPayment();
        DisputeReport opened = report(paymentId, unique("du"), Kind.OPENED, 5000);

        List<Dispute> answers = Flux.range(0, 16)
                .flatMap(i -> reports.apply(opened).subscribeOn(Schedulers.boundedElastic()), 16)
                .collectList()
                .block(TIMEOUT);

        assertThat(answers).hasSize(16);
        assertThat(answers).extracting(Dispute::id).containsOnly(answers.get(0).id());
        assertThat(count("select count(*) from disputes where payment_id = $1", paymentId)).isEqualTo(1);
        assertThat(count("select count(*) from dispute_reports where report_id = $1", opened.reportId()))
                .isEqualTo(1);
        assertThat(disputeEvents(paymentId)).containsExactly("dispute.opened");
        assertThat(amountDisputed(paymentId)).isEqualTo(5000);
    }

    /**
     * Refunds racing a dispute report: the payment row's lock orders them, and the outbox's sequence records that
     * order (each writes its event under the lock). Every refund decided after the dispute fits in what the dispute
     * left; every refund fits in what was captured.
     */
    @Test
    void refundsRacingADisputeReportNeverTakeDisputedMoney() {
        for (int round = 0; round < 4; round++) {
            String paymentId = completedPayment();
            DisputeReport opened = report(paymentId, unique("du"), Kind.OPENED, 6000);

            Flux.merge(Flux.range(0, 8).map(i -> refunds.create("demo", paymentId, 1500L, null)
                                    .then()
                                    .onErrorResume(AmountExceedsRefundable.class, refused -> Mono.empty())
                                    .subscribeOn(Schedulers.boundedElastic())),
                            Flux.just(reports.apply(opened).then().subscribeOn(Schedulers.boundedElastic())))
                    .flatMap(work -> work, 9)
                    .then()
                    .block(TIMEOUT);

            DecisionOrder.Replayed replayed = DecisionOrder.assertEveryRefundFit(db, paymentId, CAPTURED);
            assertThat(replayed.disputed()).as("dispute.opened among the decisions").isEqualTo(6000);
            assertThat(db.sql("select amount_reserved, amount_disputed from payments where id = $1")
                    .bind(0, paymentId)
                    .map(row -> tuple(row.get("amount_reserved", Long.class), row.get("amount_disputed", Long.class)))
                    .one().block(TIMEOUT))
                    .isEqualTo(tuple(replayed.reserved(), 6000L));
        }
    }
}
