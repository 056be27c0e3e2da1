package com.payorch.connectors.stripe;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.fakes.FakeStripe;
import com.payorch.testsupport.ApiTest;
import com.payorch.testsupport.OwnSchema;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Stripe's dispute reports end to end, the service against {@link FakeStripe}: a COMPLETED payment's PaymentIntent
 * disputed at Stripe becomes an OPEN dispute of the payment (its money held: `amountDisputed`), closed LOST or WON
 * as Stripe decides; each event applied once, whatever the order Stripe delivers them in; an event about a charge
 * this service did not make, a malformed one and a badly signed one change nothing.
 */
@TestPropertySource(properties = {
        "payments.merchants.stripedisputes.api-key=" + StripeDisputesIT.API_KEY,
        "payments.merchants.stripedisputes.connectors.stripe.secret-key=" + StripeDisputesIT.SECRET,
        "payments.merchants.stripedisputes.connectors.stripe.webhook-secret=" + StripeDisputesIT.WEBHOOK_SECRET,
        "payments.merchants.stripedisputes.routing=stripe"})
@OwnSchema("stripe_disputes_tests")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class StripeDisputesIT extends ApiTest {

    static final String API_KEY = "sk_test_stripedisputes";
    static final String SECRET = "sk_test_51FakeStripeDisputesSecretKeyDoNotLog25";
    static final String WEBHOOK_SECRET = "whsec_FakeStripeDisputesEndpointSecret25";
    private static final String MERCHANT = "stripedisputes";

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final FakeStripe STRIPE = new FakeStripe(5000).acceptKey(SECRET);

    @DynamicPropertySource
    static void stripe(DynamicPropertyRegistry registry) {
        registry.add("payments.connectors.stripe.api-base", STRIPE::baseUrl);
    }

    @AfterAll
    static void stopStripe() {
        STRIPE.close();
    }

    /** A COMPLETED payment of JPY 12000 at Stripe: its id and its PaymentIntent's. */
    private String[] completed(String method) {
        String body = postPayment(API_KEY, unique("key"), """
                {"bookingId": "%s", "amount": 12000, "currency": "JPY", "paymentMethod": "%s"}"""
                .formatted(unique("bk"), method)).exchange().expectStatus().isCreated().expectBody(String.class)
                .returnResult().getResponseBody();
        JsonNode payment = JSON.readTree(body);
        assertThat(payment.get("status").textValue()).isEqualTo("COMPLETED");
        return new String[] {payment.get("id").textValue(), payment.get("connectorReference").textValue()};
    }

    private WebTestClient.ResponseSpec stripeWebhook(String payload, String secret) {
        return client.post().uri("/v1/webhooks/stripe/" + MERCHANT)
                .header("Stripe-Signature", FakeStripe.sign(payload, secret, Instant.now().getEpochSecond()))
                .header("Content-Type", "application/json")
                .bodyValue(payload)
                .exchange();
    }

    /** Delivers the event; Stripe's answer's `status`. */
    private String deliver(FakeStripe.SentEvent event) {
        String body = stripeWebhook(event.payload(), WEBHOOK_SECRET).expectStatus().isOk().expectBody(String.class)
                .returnResult().getResponseBody();
        return JSON.readTree(body).get("status").textValue();
    }

    private List<FakeStripe.SentEvent> events(String disputeId) {
        return STRIPE.disputeEventsOf(disputeId);
    }

    private JsonNode get(String path) {
        String body = client.get().uri(path).header("Authorization", "Bearer " + API_KEY).exchange()
                .expectStatus().isOk().expectBody(String.class).returnResult().getResponseBody();
        return JSON.readTree(body);
    }

    private JsonNode onlyDispute(String paymentId) {
        JsonNode data = get("/v1/payments/" + paymentId + "/disputes").get("data");
        assertThat(data).hasSize(1);
        return data.get(0);
    }

    private long amountDisputed(String paymentId) {
        return get("/v1/payments/" + paymentId).get("amountDisputed").asLong();
    }

    private long events(String paymentId, String type) {
        return count("select count(*) from events where payment_id = $1 and type = $2", paymentId, type);
    }

    private long disputesOf(String paymentId) {
        return count("select count(*) from disputes where payment_id = $1", paymentId);
    }

    @Test
    void aCompletedPaymentDisputedAtStripeIsOpenWithItsMoneyHeldThenLost() {
        String[] payment = completed("pm_card_visa_dp1");
        String id = payment[0];
        String disputeId = (String) STRIPE.dispute(payment[1], 5000, "fraudulent").get("id");

        assertThat(events(disputeId)).extracting(FakeStripe.SentEvent::type)
                .containsExactly("charge.dispute.created", "charge.dispute.funds_withdrawn");
        assertThat(events(disputeId)).extracting(this::deliver).containsExactly("applied", "applied");

        JsonNode open = onlyDispute(id);
        assertThat(open.get("id").textValue()).startsWith("dp_");
        assertThat(open.get("status").textValue()).isEqualTo("OPEN");
        assertThat(open.get("amount").asLong()).isEqualTo(5000);
        assertThat(open.get("currency").textValue()).isEqualTo("JPY");
        assertThat(open.get("reason").textValue()).isEqualTo("fraudulent");
        assertThat(open.get("connector").textValue()).isEqualTo("stripe");
        assertThat(open.get("connectorReference").textValue()).isEqualTo(disputeId);
        assertThat(open.get("evidenceDueBy").isTextual()).as("Stripe's evidence_details.due_by").isTrue();
        assertThat(amountDisputed(id)).isEqualTo(5000);
        assertThat(events(id, "dispute.opened")).isEqualTo(1);

        STRIPE.closeDispute(disputeId, "lost");
        List<FakeStripe.SentEvent> sent = events(disputeId);
        assertThat(deliver(sent.get(sent.size() - 1))).isEqualTo("applied");

        assertThat(onlyDispute(id).get("status").textValue()).isEqualTo("LOST");
        assertThat(amountDisputed(id)).isEqualTo(5000);
        assertThat(events(id, "dispute.lost")).isEqualTo(1);
        assertThat(statusOf(id)).as("a dispute is not the charge's outcome").isEqualTo("COMPLETED");
    }

    @Test
    void theSameEventDeliveredTwiceMakesOneDisputeAndOneEvent() {
        String[] payment = completed("pm_card_visa_dp2");
        String disputeId = (String) STRIPE.dispute(payment[1], 12000, "product_not_received").get("id");
        FakeStripe.SentEvent created = events(disputeId).get(0);

        assertThat(deliver(created)).isEqualTo("applied");
        assertThat(deliver(created)).isEqualTo("duplicate");

        assertThat(disputesOf(payment[0])).isEqualTo(1);
        assertThat(events(payment[0], "dispute.opened")).isEqualTo(1);
        assertThat(count("select count(*) from dispute_reports where report_id = $1", created.id())).isEqualTo(1);
        assertThat(amountDisputed(payment[0])).isEqualTo(12000);
    }

    @Test
    void aClosedDeliveredBeforeItsCreatedCreatesAndClosesTheDisputeAndTheLateCreatedChangesNothing() {
        String[] payment = completed("pm_card_visa_dp3");
        String id = payment[0];
        String disputeId = (String) STRIPE.dispute(payment[1], 7000, "duplicate").get("id");
        STRIPE.closeDispute(disputeId, "lost");
        List<FakeStripe.SentEvent> sent = events(disputeId);
        assertThat(sent).extracting(FakeStripe.SentEvent::type).containsExactly("charge.dispute.created",
                "charge.dispute.funds_withdrawn", "charge.dispute.closed");

        assertThat(deliver(sent.get(2))).isEqualTo("applied");
        assertThat(onlyDispute(id).get("status").textValue()).isEqualTo("LOST");
        assertThat(events(id, "dispute.opened")).isEqualTo(1);
        assertThat(events(id, "dispute.lost")).isEqualTo(1);

        assertThat(deliver(sent.get(0))).isEqualTo("applied");
        assertThat(deliver(sent.get(1))).isEqualTo("applied");

        JsonNode after = onlyDispute(id);
        assertThat(after.get("status").textValue()).isEqualTo("LOST");
        assertThat(after.get("amount").asLong()).isEqualTo(7000);
        assertThat(disputesOf(id)).isEqualTo(1);
        assertThat(events(id, "dispute.opened")).isEqualTo(1);
        assertThat(events(id, "dispute.lost")).isEqualTo(1);
        assertThat(amountDisputed(id)).isEqualTo(7000);
    }

    @Test
    void aLostDisputeReversedIsWonAndItsMoneyFreed() {
        String[] payment = completed("pm_card_visa_dp4");
        String id = payment[0];
        String disputeId = (String) STRIPE.dispute(payment[1], 12000, "fraudulent").get("id");
        STRIPE.closeDispute(disputeId, "lost");
        STRIPE.closeDispute(disputeId, "won");
        List<FakeStripe.SentEvent> sent = events(disputeId);
        assertThat(sent).extracting(FakeStripe.SentEvent::type).containsExactly("charge.dispute.created",
                "charge.dispute.funds_withdrawn", "charge.dispute.closed", "charge.dispute.closed",
                "charge.dispute.funds_reinstated");

        for (FakeStripe.SentEvent event : sent.subList(0, 3)) {
            deliver(event);
        }
        assertThat(onlyDispute(id).get("status").textValue()).isEqualTo("LOST");
        assertThat(amountDisputed(id)).isEqualTo(12000);

        assertThat(deliver(sent.get(3))).isEqualTo("applied");
        assertThat(deliver(sent.get(4))).as("funds_reinstated: the close decided").isEqualTo("applied");

        assertThat(onlyDispute(id).get("status").textValue()).isEqualTo("WON");
        assertThat(amountDisputed(id)).isZero();
        assertThat(events(id, "dispute.lost")).isEqualTo(1);
        assertThat(events(id, "dispute.won")).isEqualTo(1);
    }

    @Test
    void anInquiryClosedWithoutAChargebackIsWon() {
        String[] payment = completed("pm_card_visa_dp5");
        String disputeId = (String) STRIPE.dispute(payment[1], 3000, "general", false).get("id");
        STRIPE.closeDispute(disputeId, "warning_closed");

        events(disputeId).forEach(this::deliver);

        assertThat(onlyDispute(payment[0]).get("status").textValue()).isEqualTo("WON");
        assertThat(amountDisputed(payment[0])).isZero();
    }

    @Test
    void aDisputeOfAPaymentIntentThisServiceDidNotMakeIsIgnoredAndRecordsNoDispute() {
        String[] payment = completed("pm_card_visa_dp6");
        Map<String, Object> dispute = new LinkedHashMap<>(STRIPE.dispute(payment[1], 4000, "fraudulent"));
        String foreignDispute = "dp_" + unique("foreign").replace("-", "").replace("_", "");
        dispute.put("id", foreignDispute);
        dispute.put("payment_intent", "pi_NotMadeByThisService" + unique("x").replace("-", "").replace("_", ""));
        String payload = FakeStripe.event(unique("evt"), "charge.dispute.created", dispute, FakeStripe.API_VERSION);

        String answer = stripeWebhook(payload, WEBHOOK_SECRET).expectStatus().isOk().expectBody(String.class)
                .returnResult().getResponseBody();

        assertThat(JSON.readTree(answer).get("status").textValue()).isEqualTo("ignored");
        assertThat(count("select count(*) from disputes where connector_reference = $1", foreignDispute)).isZero();
        assertThat(disputesOf(payment[0])).isZero();
        assertThat(events(payment[0], "dispute.opened")).isZero();
    }

    @Test
    void aMalformedDisputeEventIs400AndRecordsNothing() {
        String[] payment = completed("pm_card_visa_dp7");
        Map<String, Object> dispute = new LinkedHashMap<>(STRIPE.dispute(payment[1], 4000, "fraudulent"));
        dispute.remove("amount");
        String eventId = unique("evt");
        String payload = FakeStripe.event(eventId, "charge.dispute.created", dispute, FakeStripe.API_VERSION);

        String problem = stripeWebhook(payload, WEBHOOK_SECRET).expectStatus().isBadRequest()
                .expectBody(String.class).returnResult().getResponseBody();

        assertThat(JSON.readTree(problem).get("code").textValue()).isEqualTo("webhook_invalid");
        assertThat(count("select count(*) from webhook_receipts where webhook_id = $1", eventId)).isZero();
        assertThat(disputesOf(payment[0])).isZero();
    }

    @Test
    void aBadlySignedDisputeEventIsRejectedCountedAndChangesNothing() {
        String[] payment = completed("pm_card_visa_dp8");
        String disputeId = (String) STRIPE.dispute(payment[1], 4000, "fraudulent").get("id");
        FakeStripe.SentEvent created = events(disputeId).get(0);
        long failuresBefore = count("select count(*) from webhook_signature_failures where connector = 'stripe'"
                + " and merchant_id = $1", MERCHANT);

        String problem = stripeWebhook(created.payload(), "whsec_NotThisMerchantsSecret").expectStatus()
                .isBadRequest().expectBody(String.class).returnResult().getResponseBody();

        assertThat(JSON.readTree(problem).get("code").textValue()).isEqualTo("webhook_signature_rejected");
        Awaitility.await().atMost(WAIT).until(() -> count("select count(*) from webhook_signature_failures"
                + " where connector = 'stripe' and merchant_id = $1", MERCHANT) == failuresBefore + 1);
        assertThat(count("select count(*) from webhook_receipts where webhook_id = $1", created.id())).isZero();
        assertThat(disputesOf(payment[0])).isZero();

        assertThat(deliver(created)).as("the genuine delivery is still applied").isEqualTo("applied");
        assertThat(disputesOf(payment[0])).isEqualTo(1);
    }
}
