package com.payorch.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.payorch.disputes.DisputeReport;
import com.payorch.disputes.DisputeReport.Kind;
import com.payorch.disputes.DisputeReports;
import com.payorch.security.DevelopmentDefaults;
import com.payorch.testsupport.ApiTest;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;

/**
 * Issue 25: OPEN disputes need a person (evidence is due at the connector): "needs attention" lists them with their
 * due date, evidence due soonest first, in the user's merchant scope, and the gauges count them; a closed one is not
 * listed. The payment page shows each dispute with its own timeline. Disputes are made as a connector's reports
 * would make them, through {@link DisputeReports}.
 */
@TestPropertySource(properties = "payments.operator.api-key=" + NeedsAttentionIT.OPERATOR_KEY)
class ConsoleDisputesIT extends ApiTest {

    @Autowired
    private NeedsAttention attention;

    @Autowired
    private DisputeReports disputes;

    @Test
    void openDisputesAreListedByEvidenceDueCountedScopedAndShownOnThePaymentPage() {
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        String later = completedPayment(DEMO_KEY);
        String overdue = completedPayment(DEMO_KEY);
        String won = completedPayment(DEMO_KEY);
        String others = completedPayment(OTHER_KEY);
        String laterRef = unique("du");
        String laterId = report(later, laterRef, Kind.OPENED, "fraudulent", now.plus(Duration.ofDays(3)));
        String overdueId = report(overdue, unique("du"), Kind.OPENED, "product_not_received",
                now.minus(Duration.ofHours(2)));
        String wonRef = unique("du");
        String wonId = report(won, wonRef, Kind.OPENED, "duplicate", now.plus(Duration.ofDays(1)));
        report(won, wonRef, Kind.WON, "duplicate", null);
        String othersId = report(others, unique("du"), Kind.OPENED, "fraudulent", now.plus(Duration.ofDays(2)));

        NeedsAttention.Lists demo = attention.find(MerchantScope.of(Set.of("demo"))).block(Duration.ofSeconds(10));
        List<Object> ids = demo.openDisputes().stream().map(row -> row.get("id")).toList();
        assertThat(ids).contains(overdueId, laterId).doesNotContain(wonId, othersId);
        assertThat(ids.indexOf(overdueId)).isLessThan(ids.indexOf(laterId));
        Map<String, Object> laterRow = row(demo.openDisputes(), laterId);
        assertThat(laterRow).containsEntry("payment_id", later).containsEntry("amount", 5000L)
                .containsEntry("currency", "JPY").containsEntry("reason", "fraudulent")
                .containsEntry("connector", "sandbox").containsEntry("connector_reference", laterRef)
                .containsEntry("due_by", now.plus(Duration.ofDays(3)).toString()).containsEntry("overdue", false);
        assertThat(laterRow.get("due_in")).asString().startsWith("in 2d 23h");
        Map<String, Object> overdueRow = row(demo.openDisputes(), overdueId);
        assertThat(overdueRow).containsEntry("overdue", true);
        assertThat(overdueRow.get("due_in")).asString().matches("overdue by 2h 0[0-1]m");
        assertThat(demo.total()).isGreaterThanOrEqualTo(2);
        assertThat(attention.find(MerchantScope.ALL).block(Duration.ofSeconds(10)).openDisputes())
                .extracting(row -> row.get("id")).contains(othersId, overdueId).doesNotContain(wonId);

        String demoOnly = ConsoleSession.signIn(client, "demo-only", DEMO_ONLY_PASSWORD).page("/console/attention");
        assertThat(demoOnly).contains("Open disputes").contains(later).contains(overdue)
                .contains(now.plus(Duration.ofDays(3)).toString()).contains("overdue by 2h")
                .containsPattern("<tr (class=\"overdue\" data-dispute=\"" + overdueId + "\"|data-dispute=\"" + overdueId + "\" class=\"overdue\")>")
                .doesNotContain(others).doesNotContain(wonId);
        ConsoleSession operator = ConsoleSession.signIn(client, "operator",
                DevelopmentDefaults.DEVELOPMENT_CONSOLE_PASSWORD);
        assertThat(operator.page("/console/attention")).contains(others);

        String open = operator.page("/console/payments/" + later);
        assertThat(open).contains("id=\"amount-disputed\">5000 JPY<")
                .contains(laterId).contains(laterRef).contains("fraudulent")
                .contains(now.plus(Duration.ofDays(3)).toString())
                .containsPattern("class=\"dispute-status\">OPEN<")
                .containsPattern("<time>[^<]+</time> <span>dispute.opened</span>")
                .contains("dispute of 5000 JPY opened at sandbox");
        String closed = operator.page("/console/payments/" + won);
        assertThat(closed).contains("id=\"amount-disputed\">0 JPY<").contains(wonId)
                .containsPattern("class=\"dispute-status\">WON<")
                .containsPattern("(?s)<span>dispute.opened</span>.*<span>dispute.won</span>")
                .contains("dispute of 5000 JPY won at sandbox");
        assertThat(operator.page("/console/payments/" + overdue)).contains("<strong> overdue</strong>");
        assertThat(ConsoleSession.signIn(client, "demo-only", DEMO_ONLY_PASSWORD)
                .page("/console/payments/" + later)).contains(laterId);

        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
            String scraped = prometheus();
            assertThat(gauge(scraped, "payments_disputes_open")).isGreaterThanOrEqualTo(3);
            assertThat(gauge(scraped, "payments_disputes_evidence_overdue")).isGreaterThanOrEqualTo(1);
        });
    }

    /** A pm_card_ok payment of JPY 12000 of the key's merchant, COMPLETED by its sandbox webhook. */
    private String completedPayment(String apiKey) {
        String location = postPayment(apiKey, unique("key"), paymentBody(unique("bk"), "pm_card_ok")).exchange()
                .expectStatus().isCreated().expectBody().returnResult().getResponseHeaders().getLocation().toString();
        String paymentId = location.substring("/v1/payments/".length());
        sendWebhook(unique("msg"), webhookBody("payment.succeeded", paymentId, 12000, "JPY")).expectStatus().isOk();
        assertThat(statusOf(paymentId)).isEqualTo("COMPLETED");
        return paymentId;
    }

    private String report(String paymentId, String reference, Kind kind, String reason,
                          @Nullable Instant evidenceDueBy) {
        return disputes.apply(new DisputeReport("sandbox", unique("evt"), reference, paymentId, 1, kind, 5000,
                        "JPY", reason, evidenceDueBy, Instant.now()))
                .block(Duration.ofSeconds(10)).id();
    }

    private String prometheus() {
        return client.get().uri("/actuator/prometheus")
                .header("Authorization", "Bearer " + NeedsAttentionIT.OPERATOR_KEY)
                .exchange().expectStatus().isOk().expectBody(String.class).returnResult().getResponseBody();
    }

    private static double gauge(String scraped, String name) {
        Matcher value = Pattern.compile("(?m)^" + name + "[^ ]* ([0-9.eE+-]+|NaN)$").matcher(scraped);
        return value.find() ? Double.parseDouble(value.group(1)) : Double.NaN;
    }

    private static Map<String, Object> row(List<Map<String, Object>> list, String id) {
        return list.stream().filter(row -> id.equals(row.get("id"))).findFirst()
                .orElseThrow(() -> new AssertionError("no dispute " + id + " in " + list));
    }
}
