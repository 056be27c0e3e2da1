package com.payorch.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.payorch.security.DevelopmentDefaults;
import com.payorch.testsupport.ApiTest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;

/**
 * Issue 22: the console's "needs attention" lists what only a person can settle, each row with why, and the
 * metrics count it. Rows other engineers' flows produce (an attempt recovery could not settle, a refund in doubt,
 * an orphaned charge, a signature failure) are written here with SQL, as those flows write them.
 */
@TestPropertySource(properties = "payments.operator.api-key=" + NeedsAttentionIT.OPERATOR_KEY)
class NeedsAttentionIT extends ApiTest {

    /** The same key as ActuatorAccessIT's, so both share one application context. */
    static final String OPERATOR_KEY = "op_test_0perat0r_key";

    @Autowired
    private NeedsAttention attention;

    @Test
    void eachListShowsItsRowWithWhyAndTheMerchantScopeHoldsForSignatureFailures() {
        String giveUp = createPayment(unique("bk"), "pm_card_unavailable");
        sql("update payment_attempts set attention_reason = 'give-up due, but the look-up failed: no evidence',"
                + " attention_since = now() where payment_id = $1", giveUp);
        String refunded = createPayment(unique("bk"), "pm_card_ok");
        String refundInDoubt = "re_" + unique("doubt");
        sql("insert into refunds (id, merchant_id, payment_id, attempt, amount, currency, status, connector,"
                + " version, created_at, updated_at, sends_in_doubt) values ($1, 'demo', $2, 1, 500, 'JPY', 'PENDING',"
                + " 'sandbox', 1, now(), now(), 1)", refundInDoubt, refunded);
        String orphan = createPayment(unique("bk"), "pm_card_ok");
        sql("update payment_attempts set orphaned_at = now() where payment_id = $1", orphan);
        String ours = "item " + unique("psp") + " matched no HMAC key";
        String others = "item " + unique("psp") + " of another merchant";
        String nobodys = "request " + unique("req") + " did not verify";
        sql("insert into webhook_signature_failures (connector, merchant_id, detail) values ('adyen', 'demo', $1),"
                + " ('adyen', 'other', $2)", ours, others);
        sql("insert into webhook_signature_failures (connector, detail) values ('sandbox', $1)", nobodys);

        NeedsAttention.Lists demo = attention.find(MerchantScope.of(Set.of("demo"))).block(Duration.ofSeconds(10));
        assertThat(row(demo.attempts(), "payment_id", giveUp).get("reason")).asString().contains("no evidence");
        assertThat(row(demo.refundsInDoubt(), "id", refundInDoubt).get("reason")).asString()
                .contains("1 send(s) without an answer");
        assertThat(row(demo.orphaned(), "payment_id", orphan).get("reason")).asString()
                .contains("refund is not created yet");
        assertThat(demo.signatureFailures()).extracting(failure -> failure.get("detail"))
                .contains(ours).doesNotContain(others, nobodys);
        assertThat(attention.find(MerchantScope.ALL).block(Duration.ofSeconds(10)).signatureFailures())
                .extracting(failure -> failure.get("detail")).contains(ours, others, nobodys);

        ConsoleSession operator = ConsoleSession.signIn(client, "operator",
                DevelopmentDefaults.DEVELOPMENT_CONSOLE_PASSWORD);
        assertThat(operator.page("/console/attention"))
                .contains("Attempts not settled on evidence").contains("give-up due, but the look-up failed")
                .contains("Refunds in doubt").contains(refundInDoubt)
                .contains("Orphaned charges not yet refunded").contains(orphan)
                .contains("Webhook signature failures").contains(nobodys);
        assertThat(ConsoleSession.signIn(client, "demo-only", DEMO_ONLY_PASSWORD).page("/console/attention"))
                .contains(ours).doesNotContain(others).doesNotContain(nobodys);
    }

    @Test
    void theMetricsCountWhatNeedsAttentionAndEverySignatureFailure() {
        String giveUp = createPayment(unique("bk"), "pm_card_unavailable");
        sql("update payment_attempts set attention_reason = 'past the key lifetime; nothing found',"
                + " attention_since = now() where payment_id = $1", giveUp);
        String orphan = createPayment(unique("bk"), "pm_card_ok");
        sql("update payment_attempts set orphaned_at = now() where payment_id = $1", orphan);
        String refunded = createPayment(unique("bk"), "pm_card_ok");
        sql("insert into refunds (id, merchant_id, payment_id, attempt, amount, currency, status, connector,"
                + " version, created_at, updated_at, attention_reason, attention_since) values ($1, 'demo', $2, 1,"
                + " 500, 'JPY', 'FAILED', 'sandbox', 1, now(), now(), 'reversed after it succeeded; check by hand',"
                + " now())", "re_" + unique("doubt"), refunded);
        // A request whose signature fails, counted by connector.
        client.post().uri("/v1/webhooks/sandbox").header("Content-Type", "application/json").bodyValue("{}")
                .exchange().expectStatus().isUnauthorized();

        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
            String scraped = prometheus();
            // At least the rows written above (other tests' rows may come and go meanwhile).
            assertThat(gauge(scraped, "payments_unconfirmed_give_ups")).isGreaterThanOrEqualTo(1);
            assertThat(gauge(scraped, "payments_orphaned_charges_unrefunded")).isGreaterThanOrEqualTo(1);
            assertThat(gauge(scraped, "payments_refunds_in_doubt")).isGreaterThanOrEqualTo(1);
            assertThat(gauge(scraped, "payments_webhook_signature_failures_total\\{connector=\"sandbox\""))
                    .isGreaterThanOrEqualTo(1);
        });
    }

    /**
     * Issue 24: a payment waiting for its customer (the sandbox's `pm_card_3ds` with a returnUrl) past
     * {@code payments.customer-action.expires-after} is listed and counted; one still within it is not. The payment
     * list filters REQUIRES_ACTION and shows the wait; the payment page shows the return URL, the next action, the
     * transition and the current state on the diagram.
     */
    @Test
    void aPaymentWaitingForItsCustomerPastTheExpiryIsListedCountedFilteredAndShown() {
        String returnUrl = "https://merchant.example/back/" + unique("r");
        String expired = createPaymentFromBody(customerActionBody(unique("bk"), returnUrl));
        String waiting = createPaymentFromBody(customerActionBody(unique("bk"), returnUrl));
        String completed = createPayment(unique("bk"), "pm_card_ok");
        // Another instance's expiry holds it (claimed, connector's confirmation not in yet): this instance's expiry
        // job leaves it alone, so it stays listed as an operator would find it.
        sql("insert into work_claims (kind, item_id, claimed_by, claimed_until) values ('customer-action-expiry', $1,"
                + " gen_random_uuid(), now() + interval '1 hour')", expired);
        sql("update payments set action_required_at = now() - interval '2 hours 5 minutes' where id = $1", expired);

        NeedsAttention.Lists demo = attention.find(MerchantScope.of(Set.of("demo"))).block(Duration.ofSeconds(10));
        Map<String, Object> row = row(demo.expiredActions(), "id", expired);
        assertThat(((Number) row.get("age_seconds")).longValue()).isBetween(7_500L, 7_800L);
        assertThat(row.get("cancel_requested")).isEqualTo(false);
        assertThat(demo.expiredActions()).extracting(r -> r.get("id")).doesNotContain(waiting, completed);
        assertThat(attention.find(MerchantScope.of(Set.of("other"))).block(Duration.ofSeconds(10)).expiredActions())
                .extracting(r -> r.get("id")).doesNotContain(expired);

        ConsoleSession operator = ConsoleSession.signIn(client, "operator",
                DevelopmentDefaults.DEVELOPMENT_CONSOLE_PASSWORD);
        assertThat(operator.page("/console/attention")).contains("Customer actions expired").contains(expired)
                .doesNotContain(waiting);
        String list = operator.page("/console/payments?status=REQUIRES_ACTION");
        assertThat(list).contains(expired).contains(waiting).doesNotContain(completed)
                .contains("waiting for the customer for 2h 05m");
        String page = operator.page("/console/payments/" + expired);
        assertThat(page).contains(returnUrl)
                .containsPattern("id=\"next-action\"><a href=\"http://localhost:\\d+/sandbox/authenticate/ch_")
                .contains("→ REQUIRES_ACTION (REQUIRE_ACTION)")
                .contains("class=\"state current\" data-state=\"REQUIRES_ACTION\"");
        assertThat(operator.page("/console/payments/" + completed)).doesNotContain("id=\"next-action\"");

        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() ->
                assertThat(gauge(prometheus(), "payments_customer_actions_overdue")).isGreaterThanOrEqualTo(1));
    }

    private static String customerActionBody(String bookingId, String returnUrl) {
        return """
                {"bookingId": "%s", "amount": 12000, "currency": "JPY", "paymentMethod": "pm_card_3ds",
                 "customerEmail": "guest@example.com", "returnUrl": "%s"}""".formatted(bookingId, returnUrl);
    }

    private String prometheus() {
        return client.get().uri("/actuator/prometheus").header("Authorization", "Bearer " + OPERATOR_KEY)
                .exchange().expectStatus().isOk().expectBody(String.class).returnResult().getResponseBody();
    }

    private static double gauge(String scraped, String nameAndLabels) {
        Matcher value = Pattern.compile("(?m)^" + nameAndLabels + "[^ ]* ([0-9.eE+-]+|NaN)$").matcher(scraped);
        return value.find() ? Double.parseDouble(value.group(1)) : Double.NaN;
    }

    private static Map<String, Object> row(List<Map<String, Object>> list, String column, String value) {
        return list.stream().filter(row -> value.equals(row.get(column))).findFirst()
                .orElseThrow(() -> new AssertionError("no row with " + column + " " + value + " in " + list));
    }

    private void sql(String sql, Object... args) {
        var spec = db.sql(sql);
        for (int i = 0; i < args.length; i++) {
            spec = spec.bind(i, args[i]);
        }
        spec.then().block(Duration.ofSeconds(10));
    }
}
