package com.payorch.connectors.stripe;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.fakes.FakeStripe;
import com.payorch.testsupport.ApiTest;
import com.payorch.testsupport.OwnSchema;
import java.time.Duration;
import java.time.Instant;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The customer-action expiry at Stripe, against {@link FakeStripe}: a PaymentIntent whose customer never comes back
 * from 3-D Secure is cancelled `abandoned` two seconds later and the payment FAILS `authentication_expired` once; the
 * webhooks that arrive after that change nothing; a customer who paid just before the cancel has a COMPLETED payment.
 */
@TestPropertySource(properties = {
        "payments.merchants.stripe3dsx.api-key=" + StripeCustomerActionExpiryIT.API_KEY,
        "payments.merchants.stripe3dsx.connectors.stripe.secret-key=" + StripeCustomerActionExpiryIT.SECRET,
        "payments.merchants.stripe3dsx.connectors.stripe.webhook-secret=" + StripeCustomerActionExpiryIT.WEBHOOK_SECRET,
        "payments.merchants.stripe3dsx.routing=stripe",
        "payments.customer-action.expires-after=PT2S",
        "payments.recovery.interval=PT0.2S",
        "payments.recovery.pending-after=PT1S"})
@OwnSchema("stripe_customer_action_expiry_tests")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class StripeCustomerActionExpiryIT extends ApiTest {

    static final String API_KEY = "sk_test_stripe3dsx";
    static final String SECRET = "sk_test_51FakeStripe3dsxSecretKeyDoNotLog024";
    static final String WEBHOOK_SECRET = "whsec_FakeStripe3dsxEndpointSecretDoNotLog4";

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
                 "captureMethod": "%s", "returnUrl": "https://shop.example/back"}""".formatted(unique("bk"), method,
                captureMethod)).exchange().expectStatus().isCreated().expectBody(String.class).returnResult()
                .getResponseBody();
        JsonNode payment = JSON.readTree(body);
        assertThat(payment.get("status").textValue()).isEqualTo("REQUIRES_ACTION");
        return payment;
    }

    /** Stripe delivers every event it sent about the PaymentIntent, oldest first; each is acknowledged. */
    private void deliverEvents(String intentId) {
        for (FakeStripe.SentEvent event : STRIPE.eventsOf(intentId)) {
            client.post().uri("/v1/webhooks/stripe/stripe3dsx")
                    .header("Stripe-Signature", FakeStripe.sign(event.payload(), WEBHOOK_SECRET,
                            Instant.now().getEpochSecond()))
                    .header("Content-Type", "application/json")
                    .bodyValue(event.payload())
                    .exchange()
                    .expectStatus().isOk();
        }
    }

    private long events(String paymentId, String type) {
        return count("select count(*) from events where payment_id = $1 and type = $2", paymentId, type);
    }

    @Test
    void aCustomerWhoNeverComesBackHasThePaymentIntentCancelledAbandonedAndThePaymentFailedOnce() {
        assertExpired(createWaiting("pm_card_authenticationRequired_x1", "automatic"));
    }

    @Test
    void aHoldWhoseCustomerNeverComesBackFailsToo() {
        assertExpired(createWaiting("pm_card_authenticationRequired_x2", "manual"));
    }

    private void assertExpired(JsonNode payment) {
        String id = payment.get("id").textValue();
        String intentId = payment.get("connectorReference").textValue();

        Awaitility.await().atMost(WAIT).until(() -> "FAILED".equals(statusOf(id)));

        assertThat(queries.text("select failure_reason from payments where id = $1", id))
                .isEqualTo("authentication_expired");
        assertThat(STRIPE.intent(intentId)).containsEntry("status", "canceled")
                .containsEntry("cancellation_reason", "abandoned");
        assertThat(STRIPE.canceledWith(id + "-cancel")).containsEntry("cancellation_reason", "abandoned");
        assertThat(STRIPE.eventsOf(intentId)).extracting(FakeStripe.SentEvent::type)
                .containsExactly("payment_intent.requires_action", "payment_intent.canceled");

        deliverEvents(intentId);   // after the confirmed cancel: the waiting and the cancel, late

        assertThat(statusOf(id)).isEqualTo("FAILED");
        assertThat(queries.text("select failure_reason from payments where id = $1", id))
                .isEqualTo("authentication_expired");
        assertThat(count("select count(*) from payment_transitions where payment_id = $1 and to_status = 'FAILED'",
                id)).isEqualTo(1);
        assertThat(events(id, "payment.failed")).isEqualTo(1);
        assertThat(count("select count(*) from events where payment_id = $1 and type in ('payment.completed',"
                + " 'payment.cancelled', 'charge.orphaned')", id)).isZero();
        assertThat(STRIPE.cancelsFor(id)).isEqualTo(1);
    }

    @Test
    void aCustomerWhoPaidJustBeforeTheCancelHasACompletedPaymentAndTheLateWebhookChangesNothing() {
        JsonNode payment = createWaiting("pm_card_authenticationRequired_x3", "automatic");
        String id = payment.get("id").textValue();
        String intentId = payment.get("connectorReference").textValue();
        STRIPE.approve(intentId);   // and its webhook is late: the expiry's cancel finds it paid

        Awaitility.await().atMost(WAIT).until(() -> "COMPLETED".equals(statusOf(id)));
        deliverEvents(intentId);

        assertThat(statusOf(id)).isEqualTo("COMPLETED");
        assertThat(STRIPE.intent(intentId)).containsEntry("status", "succeeded");
        assertThat(STRIPE.cancelsFor(id)).isZero();
        assertThat(count("select count(*) from payment_transitions where payment_id = $1 and to_status = 'COMPLETED'",
                id)).isEqualTo(1);
        assertThat(events(id, "payment.completed")).isEqualTo(1);
        assertThat(events(id, "payment.failed")).isZero();
    }
}
