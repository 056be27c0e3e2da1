package com.payorch.connectors.adyen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.payorch.fakes.FakeAdyen;
import com.payorch.gateway.CancelRequest;
import com.payorch.gateway.CaptureMethod;
import com.payorch.gateway.ChargeRequest;
import com.payorch.gateway.GatewayOutcome;
import com.payorch.gateway.GatewayStatus;
import com.payorch.gateway.PaymentGateway;
import com.payorch.testsupport.ApiTest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * 3-D Secure by redirect at Adyen, through the service's API and {@link FakeAdyen}: a payment with a `returnUrl` and
 * a card that needs it waits for its customer (REQUIRES_ACTION, `nextAction.url` the fake's page); the test is the
 * customer's browser (it opens the page, approves or refuses, and reads the `redirectResult` from the redirect to the
 * `returnUrl`) and the merchant (`POST /v1/payments/{id}/complete`, which sends it to Adyen's `/payments/details`).
 */
@TestPropertySource(properties = {
        "payments.merchants.adyen3ds.api-key=" + AdyenCustomerActionIT.MERCHANT_KEY,
        "payments.merchants.adyen3ds.connectors.adyen.api-key=" + AdyenCustomerActionIT.API_KEY,
        "payments.merchants.adyen3ds.connectors.adyen.merchant-account=" + AdyenCustomerActionIT.ACCOUNT,
        "payments.merchants.adyen3ds.connectors.adyen.hmac-key=" + AdyenCustomerActionIT.HMAC_KEY,
        "payments.merchants.adyen3ds.routing=adyen",
        "payments.connectors.adyen.read-timeout=PT5S",
        "payments.recovery.pending-after=PT1H",
        "payments.recovery.processing-after=PT1H",
        "spring.r2dbc.properties.schema=adyen_action_tests",
        "spring.flyway.schemas=adyen_action_tests",
        "spring.flyway.default-schema=adyen_action_tests"})
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class AdyenCustomerActionIT extends ApiTest {

    static final String MERCHANT_KEY = "sk_test_adyen3ds";
    static final String API_KEY = "AQE_FakeAdyenThreeDsKeyDoNotLog_0024";
    static final String ACCOUNT = "PayorchThreeDsECOM";
    static final String HMAC_KEY = "44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056";
    private static final String MERCHANT = "adyen3ds";
    private static final String RETURN_URL = "https://shop.example/booking/done?ref=42";
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final FakeAdyen ADYEN = new FakeAdyen().acceptKey(API_KEY);

    private final HttpClient browser = HttpClient.newHttpClient();

    @Autowired
    PaymentGateway gateway;

    @DynamicPropertySource
    static void adyen(DynamicPropertyRegistry registry) {
        registry.add("payments.connectors.adyen.checkout-url", ADYEN::checkoutUrl);
    }

    @AfterAll
    static void stopAdyen() {
        ADYEN.close();
    }

    private JsonNode create(String token, String captureMethod, String returnUrl) {
        String body = """
                {"bookingId": "%s", "amount": 1000, "currency": "EUR", "paymentMethod": "%s",
                 "captureMethod": "%s"%s}""".formatted(unique("bk"), token, captureMethod,
                returnUrl == null ? "" : ", \"returnUrl\": \"" + returnUrl + "\"");
        return JSON.readTree(postPayment(MERCHANT_KEY, unique("key"), body).exchange().expectStatus().isCreated()
                .expectBody(String.class).returnResult().getResponseBody());
    }

    /** A payment Adyen asks to authenticate by redirect; its page is the fake's. */
    private JsonNode waiting(String captureMethod) {
        JsonNode payment = create(unique(FakeAdyen.THREE_DS), captureMethod, RETURN_URL);
        assertThat(payment.get("status").textValue()).isEqualTo("REQUIRES_ACTION");
        String psp = payment.get("connectorReference").textValue();
        assertThat(payment.path("nextAction").path("type").textValue()).isEqualTo("redirect");
        assertThat(payment.path("nextAction").path("url").textValue())
                .isEqualTo(ADYEN.checkoutUrl().replace("/v71", "/threeds/") + psp);
        assertThat(ADYEN.returnUrlOf(psp)).as("Adyen was given where the customer comes back to")
                .startsWith("https://shop.example/booking/done?ref=42");
        return payment;
    }

    /** The customer's browser: opens the page, decides, and brings the redirectResult back from the Location. */
    private String customerDecides(JsonNode payment, String decision) throws Exception {
        String page = payment.path("nextAction").path("url").textValue();
        HttpResponse<String> shown = browser.send(HttpRequest.newBuilder(URI.create(page)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(shown.statusCode()).isEqualTo(200);
        assertThat(shown.body()).contains("id=\"" + decision + "\"");
        HttpResponse<String> decided = browser.send(HttpRequest.newBuilder(URI.create(page))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("decision=" + decision)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(decided.statusCode()).isEqualTo(302);
        String location = decided.headers().firstValue("Location").orElseThrow();
        assertThat(location).startsWith("https://shop.example/booking/done?ref=42");
        return location.substring(location.indexOf("redirectResult=") + "redirectResult=".length());
    }

    private WebTestClient.ResponseSpec complete(String paymentId, String body) {
        return client.post().uri("/v1/payments/" + paymentId + "/complete")
                .header("Authorization", "Bearer " + MERCHANT_KEY)
                .header("Idempotency-Key", unique("key"))
                .header("Content-Type", "application/json")
                .bodyValue(body).exchange();
    }

    private JsonNode completed(String paymentId, String redirectResult) {
        return JSON.readTree(complete(paymentId, "{\"redirectResult\": \"" + redirectResult + "\"}")
                .expectStatus().isOk().expectBody(String.class).returnResult().getResponseBody());
    }

    /** What Adyen has to send, through the merchant's endpoint. */
    private void deliver(List<Map<String, Object>> items) {
        client.post().uri("/v1/webhooks/adyen/" + MERCHANT).header("Content-Type", "application/json")
                .bodyValue(FakeAdyen.notification(ACCOUNT, HMAC_KEY, items)).exchange()
                .expectStatus().isOk().expectBody(String.class).isEqualTo("[accepted]");
    }

    private long events(String paymentId, String type) {
        return count("select count(*) from events where payment_id = $1 and type = $2", paymentId, type);
    }

    @Test
    void anApprovedChallengeCompletedWithTheRedirectResultIsCompletedOnce() throws Exception {
        JsonNode payment = waiting("automatic");
        String id = payment.get("id").textValue();
        String psp = payment.get("connectorReference").textValue();
        assertThat(events(id, "payment.requires_action")).isEqualTo(1);

        String redirectResult = customerDecides(payment, "approve");
        JsonNode done = completed(id, redirectResult);

        assertThat(done.get("status").textValue()).isEqualTo("COMPLETED");
        assertThat(ADYEN.detailsOf(psp)).singleElement()
                .satisfies(details -> assertThat(details).containsEntry("redirectResult", redirectResult)
                        .containsEntry("idempotencyKey", id + "-complete"));
        assertThat(ADYEN.paymentsFor(id)).as("one payment at Adyen").hasSize(1);
        assertThat(ADYEN.capturedFor(id)).isEqualTo(1000);
        deliver(ADYEN.takeNotifications());
        assertThat(statusOf(id)).isEqualTo("COMPLETED");
        assertThat(events(id, "payment.completed")).as("the late AUTHORISATION settles nothing twice").isEqualTo(1);
    }

    @Test
    void aManualPaymentApprovedIsAuthorizedAndHeld() throws Exception {
        JsonNode payment = waiting("manual");
        String id = payment.get("id").textValue();

        JsonNode done = completed(id, customerDecides(payment, "approve"));

        assertThat(done.get("status").textValue()).isEqualTo("AUTHORIZED");
        assertThat(ADYEN.stateOf(payment.get("connectorReference").textValue())).isEqualTo("authorised");
        assertThat(ADYEN.capturedFor(id)).isZero();
    }

    @Test
    void aRefusedChallengeFailsThePayment() throws Exception {
        JsonNode payment = waiting("automatic");
        String id = payment.get("id").textValue();

        JsonNode done = completed(id, customerDecides(payment, "refuse"));

        assertThat(done.get("status").textValue()).isEqualTo("FAILED");
        assertThat(done.get("failureReason").textValue()).isEqualTo("3D Not Authenticated");
        assertThat(events(id, "payment.failed")).isEqualTo(1);
    }

    @Test
    void aCompletionRacingTheAuthorisationNotificationSettlesThePaymentOnce() throws Exception {
        JsonNode payment = waiting("automatic");
        String id = payment.get("id").textValue();
        String redirectResult = customerDecides(payment, "approve");
        List<Map<String, Object>> notification = ADYEN.takeNotifications();
        assertThat(notification).singleElement().satisfies(item -> assertThat(item)
                .containsEntry("eventCode", "AUTHORISATION").containsEntry("success", true));

        CountDownLatch start = new CountDownLatch(1);
        CompletableFuture<Integer> completion = CompletableFuture.supplyAsync(() -> {
            ready(start);
            return complete(id, "{\"redirectResult\": \"" + redirectResult + "\"}").returnResult(String.class)
                    .getStatus().value();
        });
        CompletableFuture<Void> webhook = CompletableFuture.runAsync(() -> {
            ready(start);
            deliver(notification);
        });
        start.countDown();
        webhook.get();

        assertThat(completion.get()).as("answered as the payment stands, or settled by the completion")
                .isEqualTo(200);
        await().atMost(WAIT).untilAsserted(() -> assertThat(statusOf(id)).isEqualTo("COMPLETED"));
        assertThat(events(id, "payment.completed")).isEqualTo(1);
        assertThat(ADYEN.paymentsFor(id)).hasSize(1);
        assertThat(ADYEN.capturedFor(id)).isEqualTo(1000);
    }

    @Test
    void aCompletionWithoutARedirectResultLeavesThePaymentWaitingAndSendsNothing() {
        JsonNode payment = waiting("automatic");
        String id = payment.get("id").textValue();

        JsonNode answer = JSON.readTree(complete(id, "{}").expectStatus().isOk().expectBody(String.class)
                .returnResult().getResponseBody());

        assertThat(answer.get("status").textValue()).isEqualTo("REQUIRES_ACTION");
        assertThat(statusOf(id)).isEqualTo("REQUIRES_ACTION");
        assertThat(ADYEN.detailsOf(payment.get("connectorReference").textValue())).isEmpty();
    }

    @Test
    void aRedirectResultOfAnotherPaymentIsNotApplied() throws Exception {
        JsonNode mine = waiting("automatic");
        JsonNode other = waiting("automatic");
        String othersResult = customerDecides(other, "approve");

        JsonNode answer = completed(mine.get("id").textValue(), othersResult);

        assertThat(answer.get("status").textValue()).isEqualTo("REQUIRES_ACTION");
        assertThat(statusOf(mine.get("id").textValue())).isEqualTo("REQUIRES_ACTION");
    }

    @Test
    void withoutAReturnUrlOrWithANativeChallengeThePaymentFailsAuthenticationRequired() {
        JsonNode noReturnUrl = create(unique(FakeAdyen.THREE_DS), "automatic", null);
        assertThat(noReturnUrl.get("status").textValue()).isEqualTo("FAILED");
        assertThat(noReturnUrl.get("failureReason").textValue()).isEqualTo("authentication_required");
        assertThat(ADYEN.returnUrlOf(noReturnUrl.get("connectorReference").textValue())).isNull();

        JsonNode nativeChallenge = create(unique(FakeAdyen.NATIVE_THREE_DS), "automatic", RETURN_URL);
        assertThat(nativeChallenge.get("status").textValue()).isEqualTo("FAILED");
        assertThat(nativeChallenge.get("failureReason").textValue()).isEqualTo("authentication_required");
    }

    @Test
    void aWaitingPaymentIsCancelledAtAdyenByItsPspReference() throws Exception {
        JsonNode payment = waiting("automatic");
        String id = payment.get("id").textValue();
        String psp = payment.get("connectorReference").textValue();
        ChargeRequest charge = new ChargeRequest(id, 1, 1000, "EUR", "pm", MERCHANT, "adyen", psp,
                CaptureMethod.AUTOMATIC, RETURN_URL);

        GatewayOutcome cancel = gateway.cancel(new CancelRequest(charge, "authentication_expired")).block(WAIT);

        assertThat(cancel.status()).as("Adyen only acknowledges").isEqualTo(GatewayStatus.PROCESSING);
        assertThat(ADYEN.releasesOf(psp)).singleElement()
                .satisfies(release -> assertThat(release).containsEntry("released", true));
        List<Map<String, Object>> confirmation = ADYEN.takeNotifications();
        assertThat(confirmation).singleElement().satisfies(item -> assertThat(item)
                .containsEntry("eventCode", "CANCELLATION").containsEntry("success", true));
        deliver(confirmation);
        await().atMost(WAIT).untilAsserted(() -> assertThat(statusOf(id)).as("Adyen's confirmed cancel settles it")
                .isIn("FAILED", "CANCELLED"));
        assertThat(events(id, "payment.completed")).isZero();
        HttpResponse<String> late = browser.send(HttpRequest.newBuilder(URI.create(payment.path("nextAction")
                .path("url").textValue())).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(late.statusCode()).as("the customer can no longer approve").isEqualTo(409);
    }

    private static void ready(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
