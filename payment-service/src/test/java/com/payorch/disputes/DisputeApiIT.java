package com.payorch.disputes;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.testsupport.ApiTest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Disputes over HTTP (issue #25, the reading side): a dispute by id, a payment's disputes, the merchant's list with
 * its status filter and pages, the refusals, another merchant's disputes, `amountDisputed` on the payment and the
 * refund it leaves. The disputes are opened and settled through {@link DisputeReports}, the one way a connector's
 * report gets in. The merchant is this run's own, so other tests' disputes never show in its lists.
 */
class DisputeApiIT extends ApiTest {

    private static final String MERCHANT = "disputes" + UUID.randomUUID().toString().substring(0, 8);
    private static final String KEY = "sk_test_" + MERCHANT;
    private static final JsonMapper JSON = new JsonMapper();
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final Instant EVIDENCE_DUE = Instant.parse("2026-12-14T23:59:59Z");

    @DynamicPropertySource
    static void merchant(DynamicPropertyRegistry registry) {
        registry.add("payments.merchants." + MERCHANT + ".api-key", () -> KEY);
    }

    @Autowired
    DisputeReports reports;

    /** A pm_card_ok payment of JPY 12000 of this test's merchant, COMPLETED by its succeeded webhook. */
    private String completedPayment() {
        String location = postPayment(KEY, unique("key"), paymentBody(unique("bk"))).exchange()
                .expectStatus().isCreated().expectBody().returnResult().getResponseHeaders().getLocation().toString();
        String paymentId = location.substring("/v1/payments/".length());
        sendWebhook(unique("msg"), webhookBody("payment.succeeded", paymentId, 12000, "JPY")).expectStatus().isOk();
        assertThat(statusOf(paymentId)).isEqualTo("COMPLETED");
        return paymentId;
    }

    /** The sandbox reports a dispute of the payment's charge (attempt 1); answers its id. */
    private String open(String paymentId, long amount, String reason) {
        DisputeReport report = new DisputeReport("sandbox", unique("rep"), unique("sbdp"), paymentId, 1,
                DisputeReport.Kind.OPENED, amount, "JPY", reason, EVIDENCE_DUE, Instant.now());
        return reports.apply(report).block(WAIT).id();
    }

    /** The sandbox reports the dispute won or lost. */
    private void settle(JsonNode dispute, DisputeReport.Kind outcome) {
        reports.apply(new DisputeReport("sandbox", unique("rep"), dispute.path("connectorReference").asText(),
                dispute.path("paymentId").asText(), 1, outcome, dispute.path("amount").asLong(),
                dispute.path("currency").asText(), null, null, Instant.now())).block(WAIT);
    }

    private WebTestClient.ResponseSpec get(String apiKey, String uri) {
        return client.get().uri(uri).header("Authorization", "Bearer " + apiKey).exchange();
    }

    private JsonNode ok(String uri) {
        return JSON.readTree(get(KEY, uri).expectStatus().isOk().expectHeader()
                .contentTypeCompatibleWith("application/json").expectBody().returnResult().getResponseBody());
    }

    private void problem(String apiKey, String uri, int status, String code, String detailNames) {
        get(apiKey, uri).expectStatus().isEqualTo(status)
                .expectHeader().contentTypeCompatibleWith("application/problem+json")
                .expectBody().jsonPath("$.code").isEqualTo(code)
                .jsonPath("$.detail").value(detail -> assertThat((String) detail).contains(detailNames));
    }

    private static List<String> ids(JsonNode page) {
        return page.path("data").valueStream().map(d -> d.path("id").asText()).toList();
    }

    @Test
    void aDisputeIsReadByIdAndWithItsPaymentAndItsAmountIsDisputed() {
        String paymentId = completedPayment();
        String disputeId = open(paymentId, 5000, "fraudulent");

        JsonNode dispute = ok("/v1/disputes/" + disputeId);
        assertThat(dispute.propertyNames()).containsExactly("id", "paymentId", "amount", "currency", "status",
                "reason", "connector", "connectorReference", "evidenceDueBy", "version", "createdAt", "updatedAt");
        assertThat(dispute.path("id").asText()).isEqualTo(disputeId).startsWith("dp_");
        assertThat(dispute.path("paymentId").asText()).isEqualTo(paymentId);
        assertThat(dispute.path("amount").asLong()).isEqualTo(5000);
        assertThat(dispute.path("currency").asText()).isEqualTo("JPY");
        assertThat(dispute.path("status").asText()).isEqualTo("OPEN");
        assertThat(dispute.path("reason").asText()).isEqualTo("fraudulent");
        assertThat(dispute.path("connector").asText()).isEqualTo("sandbox");
        assertThat(dispute.path("connectorReference").asText()).startsWith("sbdp_");
        assertThat(dispute.path("evidenceDueBy").asText()).isEqualTo("2026-12-14T23:59:59.000Z");
        assertThat(dispute.path("version").asLong()).isEqualTo(1);
        assertThat(dispute.path("createdAt").asText()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z");

        JsonNode ofPayment = ok("/v1/payments/" + paymentId + "/disputes");
        assertThat(ofPayment.propertyNames()).containsExactly("data");
        assertThat(ids(ofPayment)).containsExactly(disputeId);
        assertThat(ofPayment.path("data").get(0)).isEqualTo(dispute);
        assertThat(ok("/v1/payments/" + paymentId).path("amountDisputed").asLong()).isEqualTo(5000);

        // won: the money is no longer in question
        settle(dispute, DisputeReport.Kind.WON);
        JsonNode won = ok("/v1/disputes/" + disputeId);
        assertThat(won.path("status").asText()).isEqualTo("WON");
        assertThat(won.path("version").asLong()).isEqualTo(2);
        assertThat(ok("/v1/payments/" + paymentId).path("amountDisputed").asLong()).isZero();
    }

    @Test
    void disputedMoneyIsNotRefundable() {
        String paymentId = completedPayment();
        open(paymentId, 5000, "fraudulent");

        refund(paymentId, "{\"amount\": 7001}").expectStatus().isEqualTo(409).expectBody()
                .jsonPath("$.code").isEqualTo("amount_exceeds_refundable")
                .jsonPath("$.detail").value(detail -> assertThat((String) detail).contains("7000 JPY is refundable"));
        refund(paymentId, null).expectStatus().isCreated().expectBody().jsonPath("$.amount").isEqualTo(7000);
    }

    private WebTestClient.ResponseSpec refund(String paymentId, String body) {
        WebTestClient.RequestBodySpec spec = client.post().uri("/v1/payments/" + paymentId + "/refunds")
                .header("Authorization", "Bearer " + KEY).header("Idempotency-Key", unique("rk"))
                .header("Content-Type", "application/json");
        return (body == null ? spec : spec.bodyValue(body)).exchange();
    }

    @Test
    void aPaymentWithoutDisputesHasAnEmptyListAndNothingDisputed() {
        String paymentId = completedPayment();

        assertThat(ok("/v1/payments/" + paymentId + "/disputes").path("data").size()).isZero();
        assertThat(ok("/v1/payments/" + paymentId).path("amountDisputed").asLong()).isZero();
    }

    @Test
    void theListFiltersByStatusAndWalksInPagesNewestFirst() {
        String first = open(completedPayment(), 1000, "fraudulent");
        String second = open(completedPayment(), 2000, "product_not_received");
        String third = open(completedPayment(), 3000, null);
        settle(ok("/v1/disputes/" + second), DisputeReport.Kind.LOST);

        JsonNode lost = ok("/v1/disputes/" + second);
        assertThat(lost.path("status").asText()).isEqualTo("LOST");
        assertThat(ok("/v1/payments/" + lost.path("paymentId").asText()).path("amountDisputed").asLong())
                .isEqualTo(2000);

        JsonNode page1 = ok("/v1/disputes?limit=2");
        assertThat(ids(page1)).containsExactly(third, second);
        assertThat(page1.path("has_more").asBoolean()).isTrue();
        JsonNode page2 = ok("/v1/disputes?limit=2&starting_after=" + second);
        assertThat(ids(page2)).containsExactly(first);
        assertThat(page2.path("has_more").asBoolean()).isFalse();

        assertThat(ids(ok("/v1/disputes?status=OPEN"))).containsExactly(third, first);
        assertThat(ids(ok("/v1/disputes?status=LOST"))).containsExactly(second);
        assertThat(ids(ok("/v1/disputes?status=WON"))).isEmpty();
        JsonNode openPage = ok("/v1/disputes?status=OPEN&limit=1");
        assertThat(ids(openPage)).containsExactly(third);
        assertThat(openPage.path("has_more").asBoolean()).isTrue();
        assertThat(ids(ok("/v1/disputes?status=OPEN&limit=1&starting_after=" + third))).containsExactly(first);
    }

    @Test
    void badParametersAre400NamingThem() {
        problem(KEY, "/v1/disputes?status=open", 400, "invalid_request", "'status'");
        problem(KEY, "/v1/disputes?status=CLOSED", 400, "invalid_request", "'status'");
        problem(KEY, "/v1/disputes?limit=0", 400, "invalid_request", "'limit'");
        problem(KEY, "/v1/disputes?limit=101", 400, "invalid_request", "'limit'");
        problem(KEY, "/v1/disputes?limit=two", 400, "invalid_request", "'limit'");
        problem(KEY, "/v1/disputes?starting_after=dp_unknown", 400, "invalid_request", "'starting_after'");
        problem(KEY, "/v1/disputes/dp_unknown", 404, "not_found", "dp_unknown");
        problem(KEY, "/v1/payments/pay_unknown/disputes", 404, "not_found", "pay_unknown");
        get(KEY.replace("sk_test_", "sk_test_x"), "/v1/disputes").expectStatus().isUnauthorized();
        client.get().uri("/v1/disputes").exchange().expectStatus().isUnauthorized();
    }

    @Test
    void anotherMerchantsDisputesAreNotFoundAndNotListed() {
        String paymentId = completedPayment();
        String disputeId = open(paymentId, 4000, "fraudulent");

        problem(OTHER_KEY, "/v1/disputes/" + disputeId, 404, "not_found", disputeId);
        problem(OTHER_KEY, "/v1/payments/" + paymentId + "/disputes", 404, "not_found", paymentId);
        problem(OTHER_KEY, "/v1/disputes?starting_after=" + disputeId, 400, "invalid_request", "'starting_after'");
        JsonNode theirs = JSON.readTree(get(OTHER_KEY, "/v1/disputes?limit=100").expectStatus().isOk()
                .expectBody().returnResult().getResponseBody());
        assertThat(ids(theirs)).doesNotContain(disputeId);
    }
}
