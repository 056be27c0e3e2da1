package com.payorch.connectors.stripe;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.fakes.FakeStripe;
import com.payorch.testsupport.ApiTest;
import com.payorch.testsupport.OwnSchema;
import java.time.Duration;
import java.time.Instant;
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
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * 3-D Secure at Stripe end to end, the service against {@link FakeStripe}: a payment with a `returnUrl` whose card
 * needs authentication waits REQUIRES_ACTION on Stripe's page; the customer's approval (or failure) there settles it
 * through Stripe's webhook or the merchant's `complete`, once, whichever comes first.
 */
@TestPropertySource(properties = {
        "payments.merchants.stripe3ds.api-key=" + StripeCustomerActionIT.API_KEY,
        "payments.merchants.stripe3ds.connectors.stripe.secret-key=" + StripeCustomerActionIT.SECRET,
        "payments.merchants.stripe3ds.connectors.stripe.webhook-secret=" + StripeCustomerActionIT.WEBHOOK_SECRET,
        "payments.merchants.stripe3ds.routing=stripe",
        "payments.recovery.interval=PT0.2S"})
@OwnSchema("stripe_customer_action_tests")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class StripeCustomerActionIT extends ApiTest {

    static final String API_KEY = "sk_test_stripe3ds";
    static final String SECRET = "sk_test_51FakeStripe3dsSecretKeyDoNotLog0024";
    static final String WEBHOOK_SECRET = "whsec_FakeStripe3dsEndpointSecretDoNotLog24";
    static final String RETURN_URL = "https://shop.example/back?order=7";

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

    private JsonNode createWaiting(String method, String captureMethod) {
        String body = postPayment(API_KEY, unique("key"), """
                {"bookingId": "%s", "amount": 12000, "currency": "JPY", "paymentMethod": "%s",
                 "captureMethod": "%s", "returnUrl": "%s"}""".formatted(unique("bk"), method, captureMethod,
                RETURN_URL)).exchange().expectStatus().isCreated().expectBody(String.class).returnResult()
                .getResponseBody();
        JsonNode payment = JSON.readTree(body);
        assertThat(payment.get("status").textValue()).isEqualTo("REQUIRES_ACTION");
        return payment;
    }

    private WebTestClient.ResponseSpec stripeWebhook(String payload) {
        return client.post().uri("/v1/webhooks/stripe/stripe3ds")
                .header("Stripe-Signature", FakeStripe.sign(payload, WEBHOOK_SECRET, Instant.now().getEpochSecond()))
                .header("Content-Type", "application/json")
                .bodyValue(payload)
                .exchange();
    }

    /** Stripe delivers every event it sent about the PaymentIntent, oldest first. */
    private void deliverEvents(String intentId) {
        for (FakeStripe.SentEvent event : STRIPE.eventsOf(intentId)) {
            stripeWebhook(event.payload()).expectStatus().isOk();
        }
    }

    private WebTestClient.ResponseSpec complete(String paymentId) {
        return client.post().uri("/v1/payments/" + paymentId + "/complete")
                .header("Authorization", "Bearer " + API_KEY)
                .header("Idempotency-Key", unique("key"))
                .header("Content-Type", "application/json")
                .bodyValue("{}")
                .exchange();
    }

    private long transitionsTo(String paymentId, String status) {
        return count("select count(*) from payment_transitions where payment_id = $1 and to_status = $2", paymentId,
                status);
    }

    private long events(String paymentId, String type) {
        return count("select count(*) from events where payment_id = $1 and type = $2", paymentId, type);
    }

    @Test
    void aCardNeedingThreeDsWaitsOnStripesPageWithTheReturnUrlSentAndTheRequiresActionEventChangesNothing() {
        JsonNode payment = createWaiting("pm_card_authenticationRequired_s1", "automatic");
        String id = payment.get("id").textValue();
        String intentId = payment.get("connectorReference").textValue();

        assertThat(payment.get("nextAction").get("type").textValue()).isEqualTo("redirect");
        assertThat(payment.get("nextAction").get("url").textValue()).isEqualTo(STRIPE.baseUrl() + "/3ds/" + intentId);
        assertThat(STRIPE.createdWith(id)).containsEntry("return_url", RETURN_URL + "&payment_id=" + id);
        assertThat(events(id, "payment.requires_action")).isEqualTo(1);

        deliverEvents(intentId);   // payment_intent.requires_action: acknowledged, nothing more
        complete(id).expectStatus().isOk();   // the customer came back without finishing: still waiting

        assertThat(statusOf(id)).isEqualTo("REQUIRES_ACTION");
        assertThat(transitionsTo(id, "REQUIRES_ACTION")).isEqualTo(1);
        assertThat(STRIPE.intentsFor(id)).isEqualTo(1);
    }

    @Test
    void theCustomersApprovalCompletesThePaymentByStripesWebhook() {
        JsonNode payment = createWaiting("pm_card_authenticationRequired_s2", "automatic");
        String id = payment.get("id").textValue();
        String intentId = payment.get("connectorReference").textValue();

        STRIPE.approve(intentId);
        deliverEvents(intentId);

        assertThat(statusOf(id)).isEqualTo("COMPLETED");
        assertThat(transitionsTo(id, "COMPLETED")).isEqualTo(1);
        assertThat(events(id, "payment.completed")).isEqualTo(1);
        assertThat(STRIPE.chargesFor(id)).isEqualTo(1);
    }

    @Test
    void aManualPaymentApprovedIsAuthorised() {
        JsonNode payment = createWaiting("pm_card_authenticationRequired_s3", "manual");
        String id = payment.get("id").textValue();
        String intentId = payment.get("connectorReference").textValue();

        STRIPE.approve(intentId);
        deliverEvents(intentId);

        assertThat(statusOf(id)).isEqualTo("AUTHORIZED");
        assertThat(transitionsTo(id, "AUTHORIZED")).isEqualTo(1);
        assertThat(STRIPE.intent(intentId)).containsEntry("status", "requires_capture");
    }

    @Test
    void aFailedAuthenticationFailsThePaymentWithStripesCode() {
        JsonNode payment = createWaiting("pm_card_authenticationRequired_s4", "automatic");
        String id = payment.get("id").textValue();
        String intentId = payment.get("connectorReference").textValue();

        STRIPE.fail(intentId);
        deliverEvents(intentId);

        assertThat(statusOf(id)).isEqualTo("FAILED");
        assertThat(queries.text("select failure_reason from payments where id = $1", id))
                .isEqualTo("payment_intent_authentication_failure");
        assertThat(events(id, "payment.failed")).isEqualTo(1);
    }

    @Test
    void theMerchantsCompleteAsksStripeWhenNoWebhookCame() {
        JsonNode payment = createWaiting("pm_card_authenticationRequired_s5", "automatic");
        String id = payment.get("id").textValue();
        STRIPE.approve(payment.get("connectorReference").textValue());   // and no webhook comes

        String body = complete(id).expectStatus().isOk().expectBody(String.class).returnResult().getResponseBody();

        assertThat(JSON.readTree(body).get("status").textValue()).isEqualTo("COMPLETED");
        assertThat(transitionsTo(id, "COMPLETED")).isEqualTo(1);
        complete(id).expectStatus().isEqualTo(409);
    }

    @Test
    void completeRacingTheWebhookCompletesThePaymentOnceWithOneEvent() {
        for (int round = 0; round < 5; round++) {
            JsonNode payment = createWaiting("pm_card_authenticationRequired_s6", "automatic");
            String id = payment.get("id").textValue();
            String intentId = payment.get("connectorReference").textValue();
            STRIPE.approve(intentId);
            List<FakeStripe.SentEvent> sent = STRIPE.eventsOf(intentId);
            String succeeded = sent.get(sent.size() - 1).payload();

            Map<String, Integer> answers = Mono.zip(
                            Mono.fromCallable(() -> complete(id).returnResult(String.class).getStatus().value())
                                    .subscribeOn(Schedulers.boundedElastic()),
                            Mono.fromCallable(() -> stripeWebhook(succeeded).returnResult(String.class).getStatus()
                                    .value()).subscribeOn(Schedulers.boundedElastic()))
                    .map(both -> Map.of("complete", both.getT1(), "webhook", both.getT2()))
                    .block(WAIT);

            assertThat(answers.get("webhook")).isEqualTo(200);
            assertThat(answers.get("complete")).as("applied, or found no longer waiting").isIn(200, 409);
            Awaitility.await().atMost(WAIT).until(() -> "COMPLETED".equals(statusOf(id)));
            assertThat(transitionsTo(id, "COMPLETED")).isEqualTo(1);
            assertThat(events(id, "payment.completed")).isEqualTo(1);
            assertThat(STRIPE.chargesFor(id)).isEqualTo(1);
        }
    }

    @Test
    void withoutAReturnUrlTheSameCardFailsAuthenticationRequiredAndNothingIsSentBack() {
        String body = postPayment(API_KEY, unique("key"), """
                {"bookingId": "%s", "amount": 12000, "currency": "JPY",
                 "paymentMethod": "pm_card_authenticationRequired_s7"}""".formatted(unique("bk"))).exchange()
                .expectStatus().isCreated().expectBody(String.class).returnResult().getResponseBody();
        JsonNode payment = JSON.readTree(body);

        assertThat(payment.get("status").textValue()).isEqualTo("FAILED");
        assertThat(payment.get("failureReason").textValue()).isEqualTo("authentication_required");
        assertThat(STRIPE.createdWith(payment.get("id").textValue())).doesNotContainKey("return_url");
    }
}
