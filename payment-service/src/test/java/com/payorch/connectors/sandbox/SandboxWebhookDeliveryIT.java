package com.payorch.connectors.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;
import static org.awaitility.Awaitility.await;

import com.payorch.connectors.sandbox.WebhookReceiver.Received;
import com.payorch.testsupport.ApiTest;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** The sandbox in `webhooks: auto`, delivering to a test receiver over real HTTP. */
class SandboxWebhookDeliveryIT extends ApiTest {

    private static final String SECRET = "whsec_d0BFmsU0VGMdJ9HDLxiqpaqFttUk0N9DueT0Sgghp/I=";
    private static final WebhookReceiver receiver = new WebhookReceiver(SECRET);
    private static final Duration WAIT = Duration.ofSeconds(20);
    // The receiver fails by amount, armed before the payment exists: its first webhook may leave before the 201.
    private static final long FAILED_ONCE_AMOUNT = 12001;
    private static final long ALWAYS_FAILED_AMOUNT = 12002;

    @DynamicPropertySource
    static void sandboxDeliversToTheReceiver(DynamicPropertyRegistry registry) {
        registry.add("payments.gateway.sandbox.webhooks", () -> "auto");
        registry.add("payments.gateway.sandbox.webhook-secret", () -> SECRET);
        registry.add("payments.gateway.sandbox.webhook-url", () -> receiver.url().toString());
        registry.add("payments.gateway.sandbox.webhook-delay", () -> "PT0.2S");
        registry.add("payments.gateway.sandbox.poll-interval", () -> "PT0.1S");
        registry.add("payments.gateway.sandbox.delivery.max-attempts", () -> "3");
        registry.add("payments.gateway.sandbox.delivery.first-backoff", () -> "PT0.1S");
        registry.add("payments.gateway.sandbox.delivery.max-backoff", () -> "PT0.2S");
        registry.add("payments.gateway.sandbox.delivery.request-timeout", () -> "PT5S");
        registry.add("payments.gateway.sandbox.delivery.give-up-after", () -> "PT15S");
    }

    @Autowired
    SandboxDeliveryOptions options;
    @Autowired
    SandboxSettlement settlement;
    @Autowired
    SandboxWebhookDispatcher dispatcher;
    @Autowired
    MeterRegistry meters;

    @AfterEach
    void defaultOptions() {
        options.deliverTwice(false);
        options.reverseOrder(false);
    }

    @Test
    void aChargedCardGetsProcessingThenSucceededSignedAndInOrder() {
        String paymentId = createPayment("pm_card_ok");
        String chargeId = chargeOf(paymentId);

        List<Received> received = awaitWebhooksDone(paymentId, "delivered");

        assertThat(received).extracting(Received::webhookId)
                .containsExactly("msg_" + chargeId + "_processing", "msg_" + chargeId + "_succeeded");
        assertThat(received).extracting(Received::body).containsExactly(
                "{\"type\":\"payment.processing\",\"data\":{\"paymentId\":\"" + paymentId
                        + "\",\"chargeId\":\"" + chargeId + "\",\"amount\":12000,\"currency\":\"JPY\"}}",
                "{\"type\":\"payment.succeeded\",\"data\":{\"paymentId\":\"" + paymentId
                        + "\",\"chargeId\":\"" + chargeId + "\",\"amount\":12000,\"currency\":\"JPY\"}}");
        assertThat(received).allSatisfy(webhook -> {
            assertThat(webhook.signatureValid()).isTrue();
            assertThat(webhook.contentType()).isEqualTo("application/json");
        });
        assertThat(chargeStatus(paymentId)).isEqualTo("succeeded");
    }

    @Test
    void aDeclinedCardGetsFailedWithCardDeclined() {
        String paymentId = createPayment("pm_card_declined");

        List<Received> received = awaitWebhooksDone(paymentId, "delivered");

        assertThat(received).extracting(Received::type).containsExactly("payment.processing", "payment.failed");
        assertThat(received.get(1).body()).isEqualTo("{\"type\":\"payment.failed\",\"data\":{\"paymentId\":\""
                + paymentId + "\",\"chargeId\":\"" + chargeOf(paymentId) + "\",\"amount\":12000,\"currency\":\"JPY\",\"failureReason\":\"card_declined\"}}");
        assertThat(received).allMatch(Received::signatureValid);
        assertThat(chargeStatus(paymentId)).isEqualTo("failed");
    }

    @Test
    void deliverTwiceSendsEachWebhookTwiceUnderOneId() {
        options.deliverTwice(true);
        String paymentId = createPayment("pm_card_ok");
        String chargeId = chargeOf(paymentId);

        List<Received> received = awaitWebhooksDone(paymentId, "delivered");

        assertThat(received).extracting(Received::webhookId).containsExactly(
                "msg_" + chargeId + "_processing", "msg_" + chargeId + "_processing",
                "msg_" + chargeId + "_succeeded", "msg_" + chargeId + "_succeeded");
        assertThat(received).allMatch(Received::signatureValid);
    }

    @Test
    void reverseOrderSendsTheOutcomeFirst() {
        options.reverseOrder(true);
        String paymentId = createPayment("pm_card_ok");

        List<Received> received = awaitWebhooksDone(paymentId, "delivered");

        assertThat(received).extracting(Received::type).containsExactly("payment.succeeded", "payment.processing");
    }

    @Test
    void aWebhookAnswered500IsRetriedUnderTheSameIdAndFreshlySigned() {
        double retriesBefore = deliveries("retry");
        receiver.failOnceForPaymentsOf(FAILED_ONCE_AMOUNT);
        String paymentId = createPaymentOf(FAILED_ONCE_AMOUNT);

        List<Received> received = awaitWebhooksDone(paymentId, "delivered");

        assertThat(received).extracting(Received::type, Received::answeredStatus).containsExactly(
                tuple("payment.processing", 500),
                tuple("payment.processing", 200),
                tuple("payment.succeeded", 200));
        assertThat(received.get(1).webhookId()).isEqualTo(received.get(0).webhookId());
        assertThat(received).allMatch(Received::signatureValid);
        assertThat(deliveries("retry") - retriesBefore).isEqualTo(1);
    }

    @Test
    void aReceiverThatKeepsFailingIsGivenUpAfterMaxAttempts() {
        double gaveUpBefore = deliveries("gave_up");
        receiver.failAlwaysForPaymentsOf(ALWAYS_FAILED_AMOUNT);
        String paymentId = createPaymentOf(ALWAYS_FAILED_AMOUNT);

        List<Received> received = awaitWebhooksDone(paymentId, "gave_up");

        assertThat(received).extracting(Received::type).containsExactly("payment.processing", "payment.processing",
                "payment.processing", "payment.succeeded", "payment.succeeded", "payment.succeeded");
        assertThat(deliveries("gave_up") - gaveUpBefore).isEqualTo(2);
    }

    @Test
    void racingPollersSettleAndDeliverEachChargeExactlyOnce() {
        List<String> paymentIds = IntStream.range(0, 12).mapToObj(i -> unique("pay_race")).toList();
        for (String paymentId : paymentIds) {
            insertDueCharge(paymentId);
        }

        Flux.range(0, 4)
                .flatMap(i -> Mono.zip(settlement.settleDueCharges(), dispatcher.startDueDeliveries().thenReturn(0)))
                .then()
                .block(WAIT);

        for (String paymentId : paymentIds) {
            List<Received> received = awaitWebhooksDone(paymentId, "delivered");
            assertThat(received).extracting(Received::type)
                    .containsExactly("payment.processing", "payment.succeeded");
        }
        assertThat(count("select count(*) from sandbox_charges where payment_id = any($1) and status = 'succeeded'",
                (Object) paymentIds.toArray(String[]::new))).isEqualTo(paymentIds.size());
    }

    private String createPayment(String paymentMethod) {
        return createPayment(unique("bk"), paymentMethod);
    }

    /** Waits until the sandbox has recorded the payment's webhooks as done, then returns what the receiver got. */
    private List<Received> awaitWebhooksDone(String paymentId, String outcome) {
        await().atMost(WAIT).until(() -> count("""
                select count(*) from sandbox_charges where payment_id = $1 and webhooks_outcome = $2""",
                paymentId, outcome) == 1);
        return receiver.receivedFor(paymentId);
    }

    private String createPaymentOf(long amount) {
        return createPaymentFromBody("""
                {"bookingId": "%s", "amount": %d, "currency": "JPY", "paymentMethod": "pm_card_ok",
                 "customerEmail": "guest@example.com", "description": "Room 101, 2 nights"}"""
                .formatted(unique("bk"), amount));
    }

    private String chargeOf(String paymentId) {
        return queries.text("select id from sandbox_charges where payment_id = $1", paymentId);
    }

    private String chargeStatus(String paymentId) {
        return queries.text("select status from sandbox_charges where payment_id = $1", paymentId);
    }

    private void insertDueCharge(String paymentId) {
        queries.update("""
                insert into sandbox_charges (id, payment_id, attempt, amount, currency, payment_method, status,
                    created_at, updated_at, webhooks_due)
                values ($1, $2, 1, 12000, 'JPY', 'pm_card_ok', 'processing', $3, $3, true)""",
                "ch_" + paymentId, paymentId, Instant.now().minusSeconds(60));
    }

    private double deliveries(String result) {
        return meters.counter(SandboxWebhookSender.METRIC, "result", result).count();
    }
}
