package com.payorch.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.payorch.testsupport.ApiTest;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;

/**
 * The retention jobs with their default retentions, run often and in batches of two: rows older than their
 * retention go, younger ones and ones still needed stay. Rows are written with old timestamps directly. Own schema,
 * so no other context's jobs delete (or keep) these rows.
 */
@TestPropertySource(properties = {
        "payments.retention.interval=PT0.2S",
        "payments.retention.batch-size=2",
        // No settlement of the charges written here: their status is the test's.
        "payments.gateway.sandbox.webhook-delay=P365D",
        "spring.r2dbc.properties.schema=" + RetentionIT.SCHEMA,
        "spring.flyway.schemas=" + RetentionIT.SCHEMA,
        "spring.flyway.default-schema=" + RetentionIT.SCHEMA})
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class RetentionIT extends ApiTest {

    static final String SCHEMA = "retention_tests";
    private static final Duration WAIT = Duration.ofSeconds(15);

    @Autowired
    @Qualifier("webhookReceiptRetentionJob")
    PeriodicJob receiptRetention;

    @Autowired
    @Qualifier("workClaimRetentionJob")
    PeriodicJob claimRetention;

    @Autowired
    @Qualifier("sandboxChargeRetentionJob")
    PeriodicJob chargeRetention;

    @Test
    void webhookReceiptsOlderThanThirtyDaysAreDeleted() {
        String payment = createPayment(unique("bk"), "pm_card_ok");
        List<String> old = List.of(unique("msg"), unique("msg"), unique("msg"));
        old.forEach(id -> receipt(id, payment, "31 days"));
        String young = unique("msg");
        receipt(young, payment, "29 days");
        String fresh = unique("msg");
        receipt(fresh, payment, "0 days");

        await().atMost(WAIT).until(() -> count("select count(*) from webhook_receipts where webhook_id = any($1)",
                (Object) old.toArray(String[]::new)) == 0);
        awaitTwoMoreRuns(receiptRetention);
        assertThat(count("select count(*) from webhook_receipts where webhook_id in ($1, $2)", young, fresh))
                .isEqualTo(2);
    }

    @Test
    void workClaimsWhoseLeaseRanOutOverAnHourAgoAreDeleted() {
        String longPast = unique("pay");
        String recentlyPast = unique("pay");
        String live = unique("pay");
        claim(longPast, "now() - interval '2 hours'");
        claim(recentlyPast, "now() - interval '30 minutes'");
        claim(live, "now() + interval '1 minute'");

        await().atMost(WAIT).until(() -> count("select count(*) from work_claims where item_id = $1", longPast) == 0);
        awaitTwoMoreRuns(claimRetention);
        assertThat(count("select count(*) from work_claims where item_id in ($1, $2)", recentlyPast, live))
                .isEqualTo(2);
    }

    @Test
    void settledSandboxChargesOlderThanThirtyDaysWhoseWebhooksAreDoneAreDeleted() {
        String pending = createPayment(unique("bk"), "pm_card_unavailable");   // stays PENDING: waits for the gateway
        String delivered = charge(unique("pay"), "succeeded", "31 days", true, true);
        String gaveUpOrNone = charge(unique("pay"), "failed", "31 days", false, false);
        String alsoOld = charge(unique("pay"), "succeeded", "40 days", false, false);
        String webhooksOwed = charge(unique("pay"), "succeeded", "31 days", true, false);
        String stillProcessing = charge(unique("pay"), "processing", "31 days", false, false);
        String young = charge(unique("pay"), "succeeded", "29 days", true, true);
        String paymentStillWaiting = charge(pending, "succeeded", "31 days", false, false);

        await().atMost(WAIT).until(() -> count("select count(*) from sandbox_charges where id in ($1, $2, $3)",
                delivered, gaveUpOrNone, alsoOld) == 0);
        awaitTwoMoreRuns(chargeRetention);
        assertThat(count("select count(*) from sandbox_charges where id in ($1, $2, $3, $4)", webhooksOwed,
                stillProcessing, young, paymentStillWaiting)).isEqualTo(4);
    }

    private void receipt(String webhookId, String paymentId, String age) {
        db.sql("insert into webhook_receipts (webhook_id, gateway, type, payment_id, outcome, received_at)"
                        + " values ($1, 'sandbox', 'payment.succeeded', $2, 'applied', now() - $3::interval)")
                .bind(0, webhookId).bind(1, paymentId).bind(2, age).then().block(WAIT);
    }

    private void claim(String itemId, String claimedUntil) {
        db.sql("insert into work_claims (kind, item_id, claimed_by, claimed_until)"
                        + " values ('resubmit', $1, gen_random_uuid(), " + claimedUntil + ")")
                .bind(0, itemId).then().block(WAIT);
    }

    /** A charge made `age` ago (settled a second later); answers its id. */
    private String charge(String paymentId, String status, String age, boolean webhooksDue, boolean webhooksFinished) {
        String id = unique("ch");
        db.sql("""
                        insert into sandbox_charges (id, payment_id, attempt, amount, currency, payment_method, status,
                                                     created_at, updated_at, webhooks_due, webhooks_finished_at,
                                                     webhooks_outcome)
                        values ($1, $2, 1, 12000, 'JPY', 'pm_card_ok', $3, now() - $4::interval,
                                now() - $4::interval + interval '1 second', $5,
                                case when $6 then now() - $4::interval + interval '2 seconds' end,
                                case when $6 then 'delivered' end)""")
                .bind(0, id).bind(1, paymentId).bind(2, status).bind(3, age).bind(4, webhooksDue).bind(5, webhooksFinished)
                .then().block(WAIT);
        return id;
    }

    private static void awaitTwoMoreRuns(PeriodicJob job) {
        long runs = job.completedRuns();
        await().atMost(WAIT).until(() -> job.completedRuns() >= runs + 2);
    }
}
