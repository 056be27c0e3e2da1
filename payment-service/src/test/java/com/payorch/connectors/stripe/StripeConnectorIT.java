package com.payorch.connectors.stripe;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.fakes.FakeStripe;
import com.payorch.payments.ConnectorSubmission;
import com.payorch.payments.NewPayment;
import com.payorch.payments.Payment;
import com.payorch.payments.PaymentStateChanges;
import com.payorch.payments.TransitionOrigin;
import com.payorch.testsupport.ApiTest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.http.HttpStatus;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Stripe end to end against {@link FakeStripe}: the PaymentIntent the service creates, the status mapping, every
 * failure kind at every point (time-out after charging, 5xx after and before charging, reset after charging, a
 * revoked key, a lost submit answer, a lost webhook, duplicated and reordered webhooks), and that at most one
 * connector charges one attempt. Recovery runs on a short fuse, so assertions are about the end state and the
 * charges, whoever (client retry, recovery, webhook) got there first.
 */
@TestPropertySource(properties = {
        "payments.merchants.stripey.api-key=sk_test_stripey",
        "payments.merchants.stripey.connectors.stripe.secret-key=" + StripeConnectorIT.STRIPEY_SECRET,
        "payments.merchants.stripey.connectors.stripe.webhook-secret=" + StripeConnectorIT.STRIPEY_WEBHOOK_SECRET,
        "payments.merchants.stripey.routing=stripe",
        "payments.merchants.failover.api-key=sk_test_failover",
        "payments.merchants.failover.connectors.stripe.secret-key=" + StripeConnectorIT.FAILOVER_SECRET,
        "payments.merchants.failover.routing=stripe,sandbox",
        "payments.merchants.failover.connectors.stripe.webhook-secret=" + StripeConnectorIT.FAILOVER_WEBHOOK_SECRET,
        "payments.merchants.revoked.api-key=sk_test_revoked",
        "payments.merchants.revoked.connectors.stripe.secret-key=" + StripeConnectorIT.REVOKED_SECRET,
        "payments.merchants.revoked.routing=stripe,sandbox",
        "payments.merchants.eurostripe.api-key=sk_test_eurostripe",
        "payments.merchants.eurostripe.connectors.stripe.secret-key=" + StripeConnectorIT.FAILOVER_SECRET,
        "payments.merchants.eurostripe.routing-by-currency.EUR=stripe",
        // 2 s, not less: on a loaded build machine (2 cores, several builds) a plain create can take over a second.
        "payments.connectors.stripe.read-timeout=PT2S",
        // Long enough that the client's immediate retry, not recovery, is the next submission after a 502.
        "payments.recovery.pending-after=PT5S",
        "payments.recovery.processing-after=PT1S",
        "payments.recovery.interval=PT0.2S",
        "payments.gateway.sandbox.webhook-delay=PT1H",
        "spring.r2dbc.properties.schema=stripe_tests",
        "spring.flyway.schemas=stripe_tests",
        "spring.flyway.default-schema=stripe_tests"})
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@ExtendWith(OutputCaptureExtension.class)
class StripeConnectorIT extends ApiTest {

    static final String STRIPEY_SECRET = "sk_test_51FakeStripeySecretKeyDoNotLog0001";
    static final String STRIPEY_WEBHOOK_SECRET = "whsec_FakeStripeyEndpointSecretDoNotLog01";
    static final String FAILOVER_SECRET = "sk_test_51FakeFailoverSecretKeyDoNotLog002";
    static final String FAILOVER_WEBHOOK_SECRET = "whsec_FakeFailoverEndpointSecretDoNotLog2";
    static final String REVOKED_SECRET = "sk_test_51FakeRevokedSecretKeyDoNotLog0003";

    @Autowired
    PaymentStateChanges stateChanges;

    @Autowired
    ConnectorSubmission submission;

    @Autowired
    TransactionalOperator transaction;

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final FakeStripe STRIPE = new FakeStripe(5000).acceptKey(STRIPEY_SECRET).acceptKey(FAILOVER_SECRET);

    @DynamicPropertySource
    static void stripe(DynamicPropertyRegistry registry) {
        registry.add("payments.connectors.stripe.api-base", STRIPE::baseUrl);
    }

    @AfterAll
    static void stopStripe() {
        STRIPE.close();
    }

    private WebTestClient.ResponseSpec create(String apiKey, String key, String booking, String method,
                                              String currency) {
        return postPayment(apiKey, key, """
                {"bookingId": "%s", "amount": 12000, "currency": "%s", "paymentMethod": "%s"}"""
                .formatted(booking, currency, method)).exchange();
    }

    private JsonNode created(String apiKey, String booking, String method) {
        String body = create(apiKey, unique("key"), booking, method, "JPY").expectStatus().isCreated()
                .expectBody(String.class).returnResult().getResponseBody();
        return JSON.readTree(body);
    }

    private String paymentOf(String booking) {
        return db.sql("select id from payments where booking_id = $1").bind(0, booking)
                .map(row -> row.get(0, String.class)).one().block(Duration.ofSeconds(10));
    }

    private String column(String sql, String paymentId) {
        return db.sql(sql).bind(0, paymentId).map(row -> String.valueOf(row.get(0))).one()
                .block(Duration.ofSeconds(10));
    }


    private long sandboxCharges(String paymentId) {
        return count("select count(*) from sandbox_charges where payment_id = $1", paymentId);
    }

    private WebTestClient.ResponseSpec stripeWebhook(String merchant, String payload, String secret) {
        return client.post().uri("/v1/webhooks/stripe/" + merchant)
                .header("Stripe-Signature", FakeStripe.sign(payload, secret, Instant.now().getEpochSecond()))
                .header("Content-Type", "application/json")
                .bodyValue(payload)
                .exchange();
    }

    @Test
    void aStripePaymentIsOnePaymentIntentCreatedAsTheContractSaysAndCompletes() {
        JsonNode payment = created("sk_test_stripey", unique("bk"), "pm_card_visa");
        String id = payment.get("id").textValue();

        assertThat(payment.get("status").textValue()).isEqualTo("COMPLETED");
        assertThat(payment.get("connector").textValue()).isEqualTo("stripe");
        assertThat(payment.get("connectorReference").textValue()).startsWith("pi_")
                .isEqualTo(STRIPE.intentOf(id, 1).get("id"));
        Map<String, String> sent = STRIPE.createdWith(id);   // attempt 1's idempotency key is the payment id
        assertThat(sent).containsEntry("amount", "12000").containsEntry("currency", "jpy")
                .containsEntry("payment_method", "pm_card_visa").containsEntry("confirm", "true")
                .containsEntry("metadata[payment_id]", id).containsEntry("metadata[attempt]", "1");
        assertThat(STRIPE.chargesFor(id)).isEqualTo(1);
        assertThat(sandboxCharges(id)).isZero();
    }

    @Test
    void aCardDeclineIsFailedWithItsDeclineCodeAndNeverAFailover() {
        JsonNode payment = created("sk_test_failover", unique("bk"), "pm_card_chargeDeclined");
        String id = payment.get("id").textValue();

        assertThat(payment.get("status").textValue()).isEqualTo("FAILED");
        assertThat(payment.get("failureReason").textValue()).isEqualTo("generic_decline");
        assertThat(payment.get("connector").textValue()).isEqualTo("stripe");
        assertThat(payment.get("connectorReference").textValue()).isEqualTo(STRIPE.intentOf(id, 1).get("id"));
        assertThat(sandboxCharges(id)).isZero();
    }

    @Test
    void requiresActionIsFailedAuthenticationRequired() {
        JsonNode payment = created("sk_test_stripey", unique("bk"), "pm_card_authenticationRequired");

        assertThat(payment.get("status").textValue()).isEqualTo("FAILED");
        assertThat(payment.get("failureReason").textValue()).isEqualTo("authentication_required");
    }

    @Test
    void theCurrencyRouteSendsEuroPaymentsToStripeAndOthersToTheSandbox() {
        String euro = unique("bk");
        create("sk_test_eurostripe", unique("key"), euro, "pm_card_visa", "EUR").expectStatus().isCreated()
                .expectBody().jsonPath("$.connector").isEqualTo("stripe").jsonPath("$.status").isEqualTo("COMPLETED");
        String yen = unique("bk");
        create("sk_test_eurostripe", unique("key"), yen, "pm_card_visa", "JPY").expectStatus().isCreated()
                .expectBody().jsonPath("$.connector").isEqualTo("sandbox");
        assertThat(STRIPE.chargesFor(paymentOf(euro))).isEqualTo(1);
        assertThat(STRIPE.intentsFor(paymentOf(yen))).isZero();
        assertThat(sandboxCharges(paymentOf(yen))).isEqualTo(1);
    }

    /** The ambiguous failures: each leaves the attempt on Stripe, and the same key brings back the one charge. */
    private void ambiguousFailureIsResolvedOnStripeWithOneCharge(FakeStripe.Failure failure) {
        String booking = unique("bk");
        String key = unique("key");
        String token = unique("pm_card_visa");
        STRIPE.failNext(token, failure);

        create("sk_test_failover", key, booking, token, "JPY")
                .expectStatus().isEqualTo(HttpStatus.BAD_GATEWAY)
                .expectBody().jsonPath("$.code").isEqualTo("gateway_error");
        String id = paymentOf(booking);
        assertThat(column("select connector from payments where id = $1", id)).isEqualTo("stripe");

        // Even a definite refusal now must not move it: the earlier submission may have charged.
        STRIPE.failNext(token, FakeStripe.Failure.UNAUTHORIZED);
        create("sk_test_failover", key, booking, token, "JPY").expectStatus().is2xxSuccessful();

        // The client's retry or recovery resubmits with the same key: Stripe's saved answer, the one charge.
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> "COMPLETED".equals(statusOf(id)));
        assertThat(STRIPE.pendingFailures(token)).as("the 401 was served while the attempt was in doubt").isZero();
        assertOneChargeAtStripe(id);
    }

    private void assertOneChargeAtStripe(String id) {
        assertThat(STRIPE.intentsFor(id)).isEqualTo(1);
        assertThat(STRIPE.chargesFor(id)).isEqualTo(1);
        assertThat(sandboxCharges(id)).isZero();
        assertThat(column("select connector from payment_attempts where payment_id = $1", id)).isEqualTo("stripe");
        client.get().uri("/v1/payments/" + id).header("Authorization", "Bearer sk_test_failover").exchange()
                .expectStatus().isOk()
                .expectBody().jsonPath("$.status").isEqualTo("COMPLETED").jsonPath("$.connector").isEqualTo("stripe")
                .jsonPath("$.connectorReference").isEqualTo(STRIPE.intentOf(id, 1).get("id"));
    }

    @Test
    void aTimeOutAfterStripeChargedStaysOnStripeAndIsChargedOnce() {
        ambiguousFailureIsResolvedOnStripeWithOneCharge(FakeStripe.Failure.TIMEOUT_AFTER_CHARGE);
    }

    @Test
    void a5xxAfterStripeChargedStaysOnStripeAndIsChargedOnce() {
        ambiguousFailureIsResolvedOnStripeWithOneCharge(FakeStripe.Failure.ERROR_500_AFTER_CHARGE);
    }

    @Test
    void a5xxBeforeStripeChargedStaysOnStripeAndIsChargedOnce() {
        ambiguousFailureIsResolvedOnStripeWithOneCharge(FakeStripe.Failure.ERROR_500_BEFORE_CHARGE);
    }

    /**
     * A connection reset after Stripe charged is ambiguous. (stripe-java's default transport, the JDK's
     * HttpURLConnection, would silently re-send the POST on the reset; a refused re-send would then read as "not
     * charged". The service's own transport does not re-send.)
     */
    @Test
    void aConnectionResetAfterStripeChargedStaysOnStripeAndIsChargedOnce() {
        ambiguousFailureIsResolvedOnStripeWithOneCharge(FakeStripe.Failure.RESET_AFTER_CHARGE);
    }

    /**
     * Two submissions of one attempt at once (the API and recovery, say): one times out after Stripe charged, the
     * other is refused with a 401. The refusal must not move the attempt while the other is in doubt.
     */
    @Test
    void aDefiniteRefusalWhileAnotherSubmissionIsInDoubtDoesNotMoveTheAttempt() {
        String token = unique("pm_card_visa");
        Payment payment = transaction.transactional(stateChanges.create("failover",
                        new NewPayment(unique("bk"), 12000, "JPY", token, null, null, java.util.Map.of()), "stripe",
                        TransitionOrigin.api(unique("key"))))
                .block(Duration.ofSeconds(10)).payment();
        STRIPE.failNext(token, FakeStripe.Failure.TIMEOUT_AFTER_CHARGE);
        STRIPE.failNext(token, FakeStripe.Failure.UNAUTHORIZED);

        Mono<String> first = submission.submit(payment).map(outcome -> "outcome")
                .onErrorResume(e -> Mono.just(e.getClass().getSimpleName()));
        Mono<String> second = submission.submit(payment).map(outcome -> "outcome")
                .onErrorResume(e -> Mono.just(e.getClass().getSimpleName()));
        List<String> results = Flux.merge(first.subscribeOn(Schedulers.parallel()),
                second.subscribeOn(Schedulers.parallel())).collectList().block(Duration.ofSeconds(20));

        assertThat(results).containsExactlyInAnyOrder("GatewayException", "ConnectorRefusedException");
        assertThat(column("select connector from payments where id = $1", payment.id())).isEqualTo("stripe");
        assertThat(column("select connector || '/' || sends_in_doubt from payment_attempts where payment_id = $1",
                payment.id())).isEqualTo("stripe/1");
        assertThat(sandboxCharges(payment.id())).isZero();
        // Recovery resubmits with the same key: Stripe's saved answer, the one charge.
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> "COMPLETED".equals(statusOf(payment.id())));
        assertThat(STRIPE.intentsFor(payment.id())).isEqualTo(1);
        assertThat(sandboxCharges(payment.id())).isZero();
    }

    @Test
    void aRevokedKeyIsADefiniteRefusalThatFailsOverToTheNextConnectorOnce(CapturedOutput output) {
        String booking = unique("bk");
        String body = create("sk_test_revoked", unique("key"), booking, "pm_card_visa", "JPY")
                .expectStatus().isCreated().expectBody(String.class).returnResult().getResponseBody();
        String id = paymentOf(booking);

        // The API's own submit or recovery (whichever took the last doubt back) moves it; then the sandbox charges.
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> "PROCESSING".equals(statusOf(id)));
        assertThat(column("select connector from payments where id = $1", id)).isEqualTo("sandbox");
        assertThat(column("select connector from payment_attempts where payment_id = $1", id)).isEqualTo("sandbox");
        assertThat(STRIPE.intentsFor(id)).isZero();
        assertThat(sandboxCharges(id)).isEqualTo(1);
        assertThat(output.getAll()).contains(id).doesNotContain(REVOKED_SECRET);
        assertThat(body).doesNotContain(REVOKED_SECRET);
    }

    @Test
    void aWebhookSettlesAProcessingIntentAndDuplicatesAndReorderedEventsChangeNothing() {
        JsonNode payment = created("sk_test_stripey", unique("bk"), "pm_card_processing");
        String id = payment.get("id").textValue();
        assertThat(payment.get("status").textValue()).isEqualTo("PROCESSING");
        String intent = payment.get("connectorReference").textValue();

        // An event of another API version than the SDK's is still read.
        String succeeded = FakeStripe.event(unique("evt"), "payment_intent.succeeded",
                STRIPE.settle(intent, "succeeded"), "2019-02-19");
        stripeWebhook("stripey", succeeded, STRIPEY_WEBHOOK_SECRET).expectStatus().isOk()
                .expectBody().jsonPath("$.status").isEqualTo("applied");
        assertThat(statusOf(id)).isEqualTo("COMPLETED");

        stripeWebhook("stripey", succeeded, STRIPEY_WEBHOOK_SECRET).expectStatus().isOk()
                .expectBody().jsonPath("$.status").isEqualTo("duplicate");
        Map<String, Object> processingAgain = STRIPE.intentOf(id, 1);
        processingAgain.put("status", "processing");
        stripeWebhook("stripey", FakeStripe.event(unique("evt"), "payment_intent.processing", processingAgain,
                "2025-06-30.basil"), STRIPEY_WEBHOOK_SECRET).expectStatus().isOk()
                .expectBody().jsonPath("$.status").isEqualTo("ignored");
        assertThat(statusOf(id)).isEqualTo("COMPLETED");
        assertThat(count("select count(*) from payment_transitions where payment_id = $1 and event = 'SUCCEED'",
                id)).isEqualTo(1);
        assertThat(STRIPE.chargesFor(id)).isEqualTo(1);
    }

    @Test
    void aPaymentFailedWebhookFailsThePaymentWithTheDeclineCode() {
        JsonNode payment = created("sk_test_stripey", unique("bk"), "pm_card_processing");
        String id = payment.get("id").textValue();
        String failed = FakeStripe.event(unique("evt"), "payment_intent.payment_failed",
                STRIPE.settle(payment.get("connectorReference").textValue(), "requires_payment_method"),
                "2025-06-30.basil");

        stripeWebhook("stripey", failed, STRIPEY_WEBHOOK_SECRET).expectStatus().isOk()
                .expectBody().jsonPath("$.status").isEqualTo("applied");
        assertThat(statusOf(id)).isEqualTo("FAILED");
        assertThat(column("select failure_reason from payments where id = $1", id)).isEqualTo("insufficient_funds");
    }

    @Test
    void aLostWebhookIsMadeGoodByTheReconcilerAskingStripe() {
        JsonNode payment = created("sk_test_stripey", unique("bk"), "pm_card_processing");
        String id = payment.get("id").textValue();
        STRIPE.settle(payment.get("connectorReference").textValue(), "succeeded");   // and no webhook comes

        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> "COMPLETED".equals(statusOf(id)));
        assertThat(count("select count(*) from payment_transitions where payment_id = $1 and event = 'SUCCEED'"
                + " and source = 'reconciler'", id)).isEqualTo(1);
        assertThat(STRIPE.chargesFor(id)).isEqualTo(1);
    }

    @Test
    void aWebhookForAnAttemptWhoseSubmitAnswerWasLostIsMatchedThroughStripeAndApplied() {
        String booking = unique("bk");
        String token = unique("pm_card_processing");
        STRIPE.failNext(token, FakeStripe.Failure.ERROR_500_AFTER_CHARGE);
        create("sk_test_stripey", unique("key"), booking, token, "JPY")
                .expectStatus().isEqualTo(HttpStatus.BAD_GATEWAY);
        String id = paymentOf(booking);
        Map<String, Object> intent = STRIPE.settle(String.valueOf(STRIPE.intentOf(id, 1).get("id")), "succeeded");

        stripeWebhook("stripey", FakeStripe.event(unique("evt"), "payment_intent.succeeded", intent,
                "2025-06-30.basil"), STRIPEY_WEBHOOK_SECRET).expectStatus().isOk();

        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> "COMPLETED".equals(statusOf(id)));
        assertThat(column("select reference from payment_attempts where payment_id = $1", id))
                .isEqualTo(intent.get("id"));
        assertThat(STRIPE.intentsFor(id)).isEqualTo(1);
    }

    @Test
    void aBadSignatureIs400AndRecordsNothing(CapturedOutput output) {
        JsonNode payment = created("sk_test_stripey", unique("bk"), "pm_card_processing");
        String eventId = unique("evt");
        String payload = FakeStripe.event(eventId, "payment_intent.succeeded",
                STRIPE.intentOf(payment.get("id").textValue(), 1), "2025-06-30.basil");

        String problem = stripeWebhook("stripey", payload, "whsec_NotTheMerchantsSecret")
                .expectStatus().isBadRequest()
                .expectBody(String.class).returnResult().getResponseBody();
        assertThat(JSON.readTree(problem).get("code").textValue()).isEqualTo("webhook_signature_rejected");
        // A signature older than the 300 s tolerance is refused as well.
        client.post().uri("/v1/webhooks/stripe/stripey")
                .header("Stripe-Signature", FakeStripe.sign(payload, STRIPEY_WEBHOOK_SECRET,
                        Instant.now().minusSeconds(301).getEpochSecond()))
                .header("Content-Type", "application/json").bodyValue(payload).exchange()
                .expectStatus().isBadRequest();

        assertThat(count("select count(*) from webhook_receipts where webhook_id = $1", eventId)).isZero();
        assertThat(statusOf(payment.get("id").textValue())).isEqualTo("PROCESSING");
        assertThat(problem).doesNotContain(STRIPEY_WEBHOOK_SECRET);
        assertThat(output.getAll()).doesNotContain(STRIPEY_WEBHOOK_SECRET).doesNotContain(STRIPEY_SECRET);
    }

    @Test
    void anEventAboutAnotherMerchantsPaymentIsIgnoredThereAndChangesNothing() {
        JsonNode payment = created("sk_test_stripey", unique("bk"), "pm_card_processing");
        String id = payment.get("id").textValue();
        String eventId = unique("evt");
        String payload = FakeStripe.event(eventId, "payment_intent.succeeded",
                STRIPE.settle(payment.get("connectorReference").textValue(), "succeeded"), "2025-06-30.basil");

        // Correctly signed for merchant "failover"'s endpoint, but about merchant "stripey"'s payment: to that
        // endpoint a payment it does not have, so 200 ignored (contract v3: never 404, or Stripe resends for days).
        stripeWebhook("failover", payload, FAILOVER_WEBHOOK_SECRET).expectStatus().isOk()
                .expectBody().jsonPath("$.status").isEqualTo("ignored");

        assertThat(count("select count(*) from webhook_receipts where webhook_id = $1", eventId))
                .as("the misdirected delivery does not make the rightful one a duplicate").isZero();
        assertThat(statusOf(id)).isEqualTo("PROCESSING");
        stripeWebhook("stripey", payload, STRIPEY_WEBHOOK_SECRET).expectStatus().isOk()
                .expectBody().jsonPath("$.status").isEqualTo("applied");
    }

    @Test
    void unknownMerchantsAndMerchantsWithoutStripeAre404AndOtherEventTypesAreIgnored() {
        String payload = FakeStripe.event(unique("evt"), "customer.created", Map.of("id", "cus_1"), "2025-06-30.basil");
        stripeWebhook("nobody", payload, STRIPEY_WEBHOOK_SECRET).expectStatus().isNotFound()
                .expectBody().jsonPath("$.code").isEqualTo("not_found");
        stripeWebhook("demo", payload, STRIPEY_WEBHOOK_SECRET).expectStatus().isNotFound();
        stripeWebhook("stripey", payload, STRIPEY_WEBHOOK_SECRET).expectStatus().isOk()
                .expectBody().jsonPath("$.status").isEqualTo("ignored");
    }

    @Test
    void noSecretReachesTheEventsOrTheStoredResponses() {
        created("sk_test_stripey", unique("bk"), "pm_card_visa");
        created("sk_test_revoked", unique("bk"), "pm_card_visa");
        for (String secret : new String[] {STRIPEY_SECRET, STRIPEY_WEBHOOK_SECRET, REVOKED_SECRET, FAILOVER_SECRET}) {
            assertThat(count("select count(*) from events where data::text like '%' || $1 || '%'", secret)).isZero();
            assertThat(count("select count(*) from idempotency_keys where coalesce(convert_from(response_body, 'UTF8'), '') like"
                    + " '%' || $1 || '%'", secret)).isZero();
            assertThat(count("select count(*) from webhook_receipts where coalesce(detail, '') like '%' || $1"
                    + " || '%'", secret)).isZero();
        }
    }

    private JsonNode refund(String apiKey, String paymentId, String body, int status) {
        WebTestClient.RequestBodySpec spec = client.post().uri("/v1/payments/" + paymentId + "/refunds")
                .header("Authorization", "Bearer " + apiKey).header("Idempotency-Key", unique("rk"))
                .header("Content-Type", "application/json");
        return JSON.readTree(spec.bodyValue(body).exchange().expectStatus().isEqualTo(status)
                .expectBody(String.class).returnResult().getResponseBody());
    }

    @Test
    void aStripeRefundIsOneStripeRefundOfThePaymentIntentKeyedByTheRefundId() {
        JsonNode payment = created("sk_test_stripey", unique("bk"), "pm_card_visa_refund1");
        String id = payment.get("id").textValue();
        String intent = payment.get("connectorReference").textValue();
        assertThat(payment.get("status").textValue()).isEqualTo("COMPLETED");

        JsonNode refund = refund("sk_test_stripey", id, "{\"amount\": 5000, \"reason\": \"requested_by_customer\"}",
                201);

        assertThat(refund.get("connector").textValue()).isEqualTo("stripe");
        assertThat(refund.get("status").textValue()).isEqualTo("SUCCEEDED");
        List<Map<String, Object>> made = STRIPE.refundsOf(intent);
        assertThat(made).hasSize(1);
        assertThat(made.get(0).get("amount")).isEqualTo(5000L);
        assertThat(made.get(0).get("metadata")).isEqualTo(Map.of("refund_id", refund.get("id").textValue(),
                "payment_id", id));
        assertThat(refund.get("connectorReference").textValue()).isEqualTo(made.get(0).get("id"));
        assertThat(count("select amount_refunded from payments where id = $1", id)).isEqualTo(5000);
    }

    @Test
    void aRefundStripeDeclinesFailsWithStripesReasonAndGivesTheAmountBack() {
        String id = created("sk_test_stripey", unique("bk"), "pm_card_refundFails_1").get("id").textValue();

        JsonNode refund = refund("sk_test_stripey", id, "{}", 201);

        assertThat(refund.get("status").textValue()).isEqualTo("FAILED");
        assertThat(refund.get("failureReason").textValue()).isEqualTo("declined");
        assertThat(count("select amount_reserved from payments where id = $1", id)).isZero();
    }

    @Test
    void aPendingStripeRefundIsSettledByItsRefundUpdatedEventOnce() {
        JsonNode payment = created("sk_test_stripey", unique("bk"), "pm_card_refundPending_1");
        String id = payment.get("id").textValue();
        JsonNode refund = refund("sk_test_stripey", id, "{}", 201);
        assertThat(refund.get("status").textValue()).isEqualTo("PENDING");

        Map<String, Object> stripeRefund = new java.util.LinkedHashMap<>(
                STRIPE.refundsOf(payment.get("connectorReference").textValue()).get(0));
        stripeRefund.put("status", "succeeded");
        String eventId = "evt_" + unique("r");
        String event = FakeStripe.event(eventId, "refund.updated", stripeRefund, "2025-01-27.acacia");
        stripeWebhook("stripey", event, STRIPEY_WEBHOOK_SECRET).expectStatus().isOk()
                .expectBody().jsonPath("$.status").isEqualTo("applied");
        stripeWebhook("stripey", event, STRIPEY_WEBHOOK_SECRET).expectStatus().isOk()
                .expectBody().jsonPath("$.status").isEqualTo("duplicate");

        assertThat(column("select status from refunds where payment_id = $1", id)).isEqualTo("SUCCEEDED");
        assertThat(count("select amount_refunded from payments where id = $1", id)).isEqualTo(12000);
        assertThat(count("select count(*) from events where payment_id = $1 and type = 'refund.succeeded'", id))
                .isEqualTo(1);
        // another merchant's endpoint does not reach this refund: ignored there, the refund unchanged
        stripeWebhook("failover", FakeStripe.event("evt_" + unique("r"), "refund.updated", stripeRefund,
                "2025-01-27.acacia"), FAILOVER_WEBHOOK_SECRET).expectStatus().isOk()
                .expectBody().jsonPath("$.status").isEqualTo("ignored");
        assertThat(column("select status from refunds where payment_id = $1", id)).isEqualTo("SUCCEEDED");
    }

    @Test
    void aChargeRefundedEventSettlesTheRefundsItListsThatThisServiceMade() {
        JsonNode payment = created("sk_test_stripey", unique("bk"), "pm_card_refundPending_2");
        String id = payment.get("id").textValue();
        String refundId = refund("sk_test_stripey", id, "{\"amount\": 3000}", 201).get("id").textValue();
        Map<String, Object> stripeRefund = new java.util.LinkedHashMap<>(
                STRIPE.refundsOf(payment.get("connectorReference").textValue()).get(0));
        stripeRefund.put("status", "succeeded");
        Map<String, Object> foreign = new java.util.LinkedHashMap<>(stripeRefund);
        foreign.put("id", "re_madeInTheDashboard");
        foreign.put("metadata", Map.of());
        Map<String, Object> charge = Map.of("id", "ch_" + unique("c"), "object", "charge",
                "refunds", Map.of("object", "list", "data", List.of(foreign, stripeRefund)));

        // An endpoint on an API version before 2022-11-15, whose Charges still carry their refunds.
        stripeWebhook("stripey", FakeStripe.event("evt_" + unique("r"), "charge.refunded", charge,
                "2022-08-01"), STRIPEY_WEBHOOK_SECRET).expectStatus().isOk()
                .expectBody().jsonPath("$.status").isEqualTo("applied");

        assertThat(column("select status from refunds where id = $1", refundId)).isEqualTo("SUCCEEDED");
        assertThat(count("select amount_refunded from payments where id = $1", id)).isEqualTo(3000);
    }
    /**
     * Since API version 2022-11-15 a Charge no longer carries its `refunds` (Stripe's changelog "The Charges object
     * no longer auto-expands refunds"), so a `charge.refunded` event of a current version names no refund: it is
     * answered `ignored` and changes nothing; the refund's own `refund.updated` (or the reconciler) settles it.
     */
    @Test
    void aChargeRefundedEventOfACurrentApiVersionListsNoRefundAndChangesNothing() {
        JsonNode payment = created("sk_test_stripey", unique("bk"), "pm_card_refundPending_3");
        String id = payment.get("id").textValue();
        String intentId = payment.get("connectorReference").textValue();
        String refundId = refund("sk_test_stripey", id, "{\"amount\": 3000}", 201).get("id").textValue();
        Map<String, Object> charge = new java.util.LinkedHashMap<>();
        charge.put("id", String.valueOf(STRIPE.intent(intentId).get("latest_charge")));
        charge.put("object", "charge");
        charge.put("amount", payment.get("amount").longValue());
        charge.put("amount_refunded", 3000);
        charge.put("currency", payment.get("currency").textValue().toLowerCase(java.util.Locale.ROOT));
        charge.put("payment_intent", intentId);
        charge.put("refunded", false);
        charge.put("status", "succeeded");

        stripeWebhook("stripey", FakeStripe.event("evt_" + unique("r"), "charge.refunded", charge,
                com.stripe.Stripe.API_VERSION), STRIPEY_WEBHOOK_SECRET).expectStatus().isOk()
                .expectBody().jsonPath("$.status").isEqualTo("ignored");

        assertThat(column("select status from refunds where id = $1", refundId)).isEqualTo("PENDING");
        assertThat(count("select amount_refunded from payments where id = $1", id)).isZero();
    }
}
