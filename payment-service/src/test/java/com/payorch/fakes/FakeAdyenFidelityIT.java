package com.payorch.fakes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.adyen.model.checkout.CheckoutRedirectAction;
import com.adyen.model.checkout.CheckoutThreeDS2Action;
import com.adyen.model.checkout.PaymentCancelResponse;
import com.adyen.model.checkout.PaymentDetailsResponse;
import com.adyen.model.checkout.PaymentCaptureResponse;
import com.adyen.model.checkout.PaymentRefundResponse;
import com.adyen.model.checkout.PaymentResponse;
import com.adyen.model.checkout.PaymentReversalResponse;
import com.adyen.model.checkout.StandalonePaymentCancelResponse;
import com.adyen.model.checkout.ServiceError;
import com.adyen.model.notification.NotificationRequest;
import com.adyen.model.notification.NotificationRequestItem;
import com.adyen.util.HMACValidator;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Every kind of body {@link FakeAdyen} answers (and every notification it builds) is read with the Adyen SDK's own
 * generated models (Checkout v71: `PaymentResponse`, `PaymentRefundResponse`, `ServiceError`; `NotificationRequest`)
 * through the SDK's own Jackson mapper made strict (an unknown field fails), and the fields the service maps are
 * populated. Also Adyen's headers (`pspReference`, the echoed `Idempotency-Key`) and its idempotency rule.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FakeAdyenFidelityIT {

    private static final String KEY = "AQE_FakeFidelityAdyenKeyDoNotLog_0008";
    private static final String ACCOUNT = "PayorchFidelityECOM";
    private static final String HMAC_KEY = "44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056";
    private static final ObjectMapper STRICT = com.adyen.model.checkout.JSON.getMapper().copy()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private final FakeAdyen adyen = new FakeAdyen().acceptKey(KEY);
    private final HttpClient http = HttpClient.newHttpClient();

    @AfterAll
    void stop() {
        adyen.close();
    }

    @Test
    void theStrictReaderRejectsAFieldTheModelDoesNotKnow() {
        assertThatThrownBy(() -> STRICT.readValue("{\"resultCode\": \"Authorised\", \"notAField\": 1}",
                PaymentResponse.class)).isInstanceOf(UnrecognizedPropertyException.class);
    }

    @Test
    void anAuthorisedPaymentIsAPaymentResponseAndTheSameKeyAnswersTheSameOne() throws Exception {
        String key = "key_" + UUID.randomUUID();
        String body = payment("pay_afid1", "pm_stored_fid");
        HttpResponse<String> first = post("/payments", body, key);

        assertThat(first.statusCode()).isEqualTo(200);
        PaymentResponse response = STRICT.readValue(first.body(), PaymentResponse.class);
        assertThat(response.getResultCode()).isEqualTo(PaymentResponse.ResultCodeEnum.AUTHORISED);
        assertThat(response.getPspReference()).hasSize(16);
        assertThat(response.getMerchantReference()).isEqualTo("pay_afid1");
        assertThat(response.getAmount().getValue()).isEqualTo(4200L);
        assertThat(response.getAmount().getCurrency()).isEqualTo("EUR");
        assertThat(response.getAdditionalData()).containsKey("authCode");
        assertThat(first.headers().firstValue("pspReference")).contains(response.getPspReference());
        assertThat(first.headers().firstValue("Idempotency-Key")).contains(key);
        assertThat(PaymentResponse.fromJson(first.body())).isEqualTo(response);

        HttpResponse<String> again = post("/payments", body, key);
        assertThat(again.body()).isEqualTo(first.body());
        assertThat(adyen.paymentsFor("pay_afid1")).hasSize(1);
    }

    @Test
    void aRefusalAndAReceivedPaymentArePaymentResponses() throws Exception {
        PaymentResponse refused = STRICT.readValue(post("/payments", payment("pay_afid2", null),
                "key_" + UUID.randomUUID()).body(), PaymentResponse.class);
        assertThat(refused.getResultCode()).isEqualTo(PaymentResponse.ResultCodeEnum.REFUSED);
        assertThat(refused.getRefusalReason()).isEqualTo("Refused");
        assertThat(refused.getRefusalReasonCode()).isEqualTo("2");

        PaymentResponse received = STRICT.readValue(post("/payments", payment("pay_afid3", "pm_card_processing_fid"),
                "key_" + UUID.randomUUID()).body(), PaymentResponse.class);
        assertThat(received.getResultCode()).isEqualTo(PaymentResponse.ResultCodeEnum.RECEIVED);
        assertThat(received.getPspReference()).isNotBlank();
    }

    @Test
    void errorsAreServiceErrorsAndA500AfterProcessingLeavesTheFirstResultForTheKey() throws Exception {
        HttpResponse<String> unauthorized = http.send(HttpRequest.newBuilder(URI.create(adyen.checkoutUrl()
                        + "/payments")).header("X-API-Key", "AQE_NotAKnownKey").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(payment("pay_afid4", "pm_stored_fid"))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(unauthorized.statusCode()).isEqualTo(401);
        ServiceError security = STRICT.readValue(unauthorized.body(), ServiceError.class);
        assertThat(security.getStatus()).isEqualTo(401);
        assertThat(security.getErrorCode()).isEqualTo("000");
        assertThat(security.getErrorType()).isEqualTo("security");

        String key = "key_" + UUID.randomUUID();
        String body = payment("pay_afid5", "pm_stored_fid500");
        adyen.failNext("pm_stored_fid500", FakeAdyen.Failure.ERROR_500_AFTER_CHARGE);
        HttpResponse<String> failed = post("/payments", body, key);
        assertThat(failed.statusCode()).isEqualTo(500);
        ServiceError internal = STRICT.readValue(failed.body(), ServiceError.class);
        assertThat(internal.getStatus()).isEqualTo(500);
        assertThat(internal.getPspReference()).isNotBlank();
        PaymentResponse retried = STRICT.readValue(post("/payments", body, key).body(), PaymentResponse.class);
        assertThat(retried.getResultCode()).isEqualTo(PaymentResponse.ResultCodeEnum.AUTHORISED);
        assertThat(retried.getPspReference()).isEqualTo(internal.getPspReference());
        assertThat(adyen.paymentsFor("pay_afid5")).hasSize(1);

        adyen.failNext("pm_stored_fid500b", FakeAdyen.Failure.ERROR_500_BEFORE_CHARGE);
        HttpResponse<String> before = post("/payments", payment("pay_afid6", "pm_stored_fid500b"),
                "key_" + UUID.randomUUID());
        assertThat(before.statusCode()).isEqualTo(500);
        assertThat(STRICT.readValue(before.body(), ServiceError.class).getErrorType()).isEqualTo("configuration");
        assertThat(adyen.paymentsFor("pay_afid6")).isEmpty();
    }

    @Test
    void aRefundIsAPaymentRefundResponseReceivedAndIdempotentOnItsKey() throws Exception {
        PaymentResponse paid = STRICT.readValue(post("/payments", payment("pay_afid7", "pm_stored_fidr"),
                "key_" + UUID.randomUUID()).body(), PaymentResponse.class);
        String refundKey = "ref_" + UUID.randomUUID();
        String refund = """
                {"amount": {"currency": "EUR", "value": 1000}, "merchantAccount": "%s", "reference": "%s"}"""
                .formatted(ACCOUNT, refundKey);
        HttpResponse<String> created = post("/payments/" + paid.getPspReference() + "/refunds", refund, refundKey);

        assertThat(created.statusCode()).isEqualTo(201);
        PaymentRefundResponse response = STRICT.readValue(created.body(), PaymentRefundResponse.class);
        assertThat(response.getStatus()).isEqualTo(PaymentRefundResponse.StatusEnum.RECEIVED);
        assertThat(response.getPaymentPspReference()).isEqualTo(paid.getPspReference());
        assertThat(response.getReference()).isEqualTo(refundKey);
        assertThat(response.getMerchantAccount()).isEqualTo(ACCOUNT);
        assertThat(response.getAmount().getValue()).isEqualTo(1000L);
        assertThat(created.headers().firstValue("pspReference")).contains(response.getPspReference());
        assertThat(post("/payments/" + paid.getPspReference() + "/refunds", refund, refundKey).body())
                .isEqualTo(created.body());
        assertThat(adyen.refundsOf(paid.getPspReference())).hasSize(1);
    }

    @Test
    void notificationsAreNotificationRequestsWhoseItemsTheSdksHmacValidatorAccepts() throws Exception {
        String batch = FakeAdyen.notification(ACCOUNT, HMAC_KEY, List.of(
                Map.of("pspReference", "8816118280275544", "merchantReference", "pay_afid8", "success", true,
                        "value", 4200L, "currency", "EUR", "reason", "065696:1111:03/2030"),
                Map.of("pspReference", "8816118280275545", "merchantReference", "ref_afid8", "success", false,
                        "value", 1000L, "currency", "EUR", "eventCode", "REFUND",
                        "originalReference", "8816118280275544", "reason", "Insufficient balance")));

        NotificationRequest request = NotificationRequest.fromJson(batch);
        assertThat(request.getLive()).isEqualTo("false");
        List<NotificationRequestItem> items = request.getNotificationItems();
        assertThat(items).hasSize(2);
        HMACValidator validator = new HMACValidator();
        for (NotificationRequestItem item : items) {
            assertThat(validator.validateHMAC(item, HMAC_KEY)).as("item %s", item.getPspReference()).isTrue();
            assertThat(item.getMerchantAccountCode()).isEqualTo(ACCOUNT);
            assertThat(item.getEventDate()).isNotNull();
        }
        assertThat(items.get(0).getEventCode()).isEqualTo("AUTHORISATION");
        assertThat(items.get(0).isSuccess()).isTrue();
        assertThat(items.get(0).getAmount().getValue()).isEqualTo(4200L);
        assertThat(items.get(1).getEventCode()).isEqualTo("REFUND");
        assertThat(items.get(1).isSuccess()).isFalse();
        assertThat(items.get(1).getOriginalReference()).isEqualTo("8816118280275544");
        assertThat(items.get(1).getReason()).isEqualTo("Insufficient balance");
    }

    @Test
    void anAmountInTheWrongUnitsForAdyensTableIsAValidationServiceError() throws Exception {
        // CLP 5050 in ISO units sent as is: at Adyen CLP has 2 decimals and no subunit, so the value must end in 00.
        HttpResponse<String> refused = post("/payments", payment("pay_afid9", "pm_stored_units", "CLP", 5050),
                "key_" + UUID.randomUUID());

        assertThat(refused.statusCode()).isEqualTo(422);
        ServiceError error = STRICT.readValue(refused.body(), ServiceError.class);
        assertThat(error.getErrorCode()).isEqualTo("137");
        assertThat(error.getErrorType()).isEqualTo("validation");
        assertThat(adyen.paymentsFor("pay_afid9")).isEmpty();
        assertThat(post("/payments", payment("pay_afid10", "pm_stored_units", "CLP", 505000),
                "key_" + UUID.randomUUID()).statusCode()).isEqualTo(200);
        assertThat(post("/payments", payment("pay_afid11", "pm_stored_units", "CVE", 123),
                "key_" + UUID.randomUUID()).statusCode()).as("CVE has no decimals at Adyen").isEqualTo(200);
    }

    @Test
    void aCancelByReferenceIsAStandalonePaymentCancelResponseAndItsTechnicalCancelIsSigned() throws Exception {
        PaymentResponse held = STRICT.readValue(post("/payments", heldPayment("pay_afid12"),
                "key_" + UUID.randomUUID()).body(), PaymentResponse.class);
        adyen.takeNotifications();
        String key = "pay_afid12-cancel";
        String cancel = "{\"merchantAccount\": \"" + ACCOUNT + "\", \"paymentReference\": \"pay_afid12\","
                + " \"reference\": \"" + key + "\"}";

        HttpResponse<String> created = post("/cancels", cancel, key);

        assertThat(created.statusCode()).isEqualTo(201);
        StandalonePaymentCancelResponse response = STRICT.readValue(created.body(),
                StandalonePaymentCancelResponse.class);
        assertThat(response.getStatus()).isEqualTo(StandalonePaymentCancelResponse.StatusEnum.RECEIVED);
        assertThat(response.getPaymentReference()).isEqualTo("pay_afid12");
        assertThat(response.getPspReference()).hasSize(16);
        assertThat(post("/cancels", cancel, key).body()).isEqualTo(created.body());
        List<Map<String, Object>> sent = adyen.takeNotifications();
        assertThat(sent).as("one cancel, one notification").hasSize(1);
        NotificationRequestItem item = NotificationRequest.fromJson(FakeAdyen.notification(ACCOUNT, HMAC_KEY, sent))
                .getNotificationItems().get(0);
        assertThat(new HMACValidator().validateHMAC(item, HMAC_KEY)).isTrue();
        assertThat(item.getEventCode()).isEqualTo("TECHNICAL_CANCEL");
        assertThat(item.isSuccess()).as("an uncaptured authorisation is cancelled").isTrue();
        assertThat(item.getOriginalReference()).isEqualTo(held.getPspReference());
        assertThat(item.getPspReference()).isEqualTo(response.getPspReference());
        assertThat(item.getMerchantReference()).isEqualTo("pay_afid12");
        assertThat(item.getAdditionalData()).containsEntry("metadata.attempt", "1")
                .containsEntry("metadata.paymentId", "pay_afid12");
    }

    @Test
    void aReversalIsAPaymentReversalResponseAndCancelsAnUncapturedAuthorisation() throws Exception {
        PaymentResponse held = STRICT.readValue(post("/payments", heldPayment("pay_afid13"),
                "key_" + UUID.randomUUID()).body(), PaymentResponse.class);
        adyen.takeNotifications();
        String key = "re_afid13";

        HttpResponse<String> created = post("/payments/" + held.getPspReference() + "/reversals",
                "{\"merchantAccount\": \"" + ACCOUNT + "\", \"reference\": \"" + key + "\"}", key);

        assertThat(created.statusCode()).isEqualTo(201);
        PaymentReversalResponse response = STRICT.readValue(created.body(), PaymentReversalResponse.class);
        assertThat(response.getStatus()).isEqualTo(PaymentReversalResponse.StatusEnum.RECEIVED);
        assertThat(response.getPaymentPspReference()).isEqualTo(held.getPspReference());
        assertThat(response.getReference()).isEqualTo(key);
        NotificationRequestItem item = NotificationRequest.fromJson(FakeAdyen.notification(ACCOUNT, HMAC_KEY,
                adyen.takeNotifications())).getNotificationItems().get(0);
        assertThat(item.getEventCode()).isEqualTo("CANCEL_OR_REFUND");
        assertThat(item.isSuccess()).isTrue();
        assertThat(item.getAdditionalData()).containsEntry("modification.action", "cancel");
        assertThat(item.getMerchantReference()).isEqualTo(key);
        assertThat(item.getOriginalReference()).isEqualTo(held.getPspReference());
        assertThat(item.getAmount().getValue()).isEqualTo(4200L);
        assertThat(adyen.reversalsOf(held.getPspReference())).singleElement()
                .satisfies(reversal -> assertThat(reversal).containsEntry("action", "cancel"));
    }

    @Test
    void aCaptureIsAPaymentCaptureResponseAndItsCaptureNotificationCarriesTheCapturedAmount() throws Exception {
        PaymentResponse held = STRICT.readValue(post("/payments", heldPayment("pay_afid14"),
                "key_" + UUID.randomUUID()).body(), PaymentResponse.class);
        adyen.takeNotifications();
        String key = "pay_afid14-capture-1";
        String capture = "{\"amount\": {\"currency\": \"EUR\", \"value\": 3000}, \"merchantAccount\": \""
                + ACCOUNT + "\", \"reference\": \"" + key + "\"}";

        HttpResponse<String> created = post("/payments/" + held.getPspReference() + "/captures", capture, key);

        assertThat(created.statusCode()).isEqualTo(201);
        PaymentCaptureResponse response = STRICT.readValue(created.body(), PaymentCaptureResponse.class);
        assertThat(response.getStatus()).isEqualTo(PaymentCaptureResponse.StatusEnum.RECEIVED);
        assertThat(response.getPaymentPspReference()).isEqualTo(held.getPspReference());
        assertThat(response.getReference()).isEqualTo(key);
        assertThat(response.getAmount().getValue()).isEqualTo(3000L);
        assertThat(response.getPspReference()).hasSize(16);
        assertThat(created.headers().firstValue("Idempotency-Key")).contains(key);
        assertThat(post("/payments/" + held.getPspReference() + "/captures", capture, key).body())
                .as("the same key answers the same capture").isEqualTo(created.body());
        assertThat(adyen.capturesOf(held.getPspReference())).hasSize(1);
        List<Map<String, Object>> sent = adyen.takeNotifications();
        assertThat(sent).as("one capture, one notification").hasSize(1);
        NotificationRequestItem item = NotificationRequest.fromJson(FakeAdyen.notification(ACCOUNT, HMAC_KEY, sent))
                .getNotificationItems().get(0);
        assertThat(new HMACValidator().validateHMAC(item, HMAC_KEY)).isTrue();
        assertThat(item.getEventCode()).isEqualTo("CAPTURE");
        assertThat(item.isSuccess()).isTrue();
        assertThat(item.getPspReference()).isEqualTo(response.getPspReference());
        assertThat(item.getOriginalReference()).isEqualTo(held.getPspReference());
        assertThat(item.getMerchantReference()).isEqualTo(key);
        assertThat(item.getAmount().getValue()).as("the captured amount").isEqualTo(3000L);
        assertThat(item.getAdditionalData()).as("CaptureAdditionalData has no metadata").containsOnlyKeys(
                "hmacSignature");
        assertThat(adyen.capturedFor("pay_afid14")).isEqualTo(3000L);
        assertThat(adyen.stateOf(held.getPspReference())).as("the uncaptured rest is cancelled").isEqualTo("captured");
    }

    @Test
    void aCancelByPspReferenceIsAPaymentCancelResponseAndItsCancellationIsSigned() throws Exception {
        PaymentResponse held = STRICT.readValue(post("/payments", heldPayment("pay_afid15"),
                "key_" + UUID.randomUUID()).body(), PaymentResponse.class);
        adyen.takeNotifications();
        String key = "pay_afid15-cancel";
        String cancel = "{\"merchantAccount\": \"" + ACCOUNT + "\", \"reference\": \"" + key + "\"}";

        HttpResponse<String> created = post("/payments/" + held.getPspReference() + "/cancels", cancel, key);

        assertThat(created.statusCode()).isEqualTo(201);
        PaymentCancelResponse response = STRICT.readValue(created.body(), PaymentCancelResponse.class);
        assertThat(response.getStatus()).isEqualTo(PaymentCancelResponse.StatusEnum.RECEIVED);
        assertThat(response.getPaymentPspReference()).isEqualTo(held.getPspReference());
        assertThat(response.getReference()).isEqualTo(key);
        assertThat(post("/payments/" + held.getPspReference() + "/cancels", cancel, key).body())
                .isEqualTo(created.body());
        List<Map<String, Object>> sent = adyen.takeNotifications();
        assertThat(sent).hasSize(1);
        NotificationRequestItem item = NotificationRequest.fromJson(FakeAdyen.notification(ACCOUNT, HMAC_KEY, sent))
                .getNotificationItems().get(0);
        assertThat(new HMACValidator().validateHMAC(item, HMAC_KEY)).isTrue();
        assertThat(item.getEventCode()).isEqualTo("CANCELLATION");
        assertThat(item.isSuccess()).isTrue();
        assertThat(item.getOriginalReference()).isEqualTo(held.getPspReference());
        assertThat(item.getAmount().getValue()).isEqualTo(4200L);
        assertThat(adyen.stateOf(held.getPspReference())).isEqualTo("cancelled");
    }

    @Test
    void aThreeDsCardIsARedirectShopperWhosePageAndDetailsAreAdyensModels() throws Exception {
        String body = payment("pay_afid16", FakeAdyen.THREE_DS + "_fid").replaceFirst("\\{",
                "{\"returnUrl\": \"https://shop.example/back?order=7\", ");
        String key = "key_" + UUID.randomUUID();

        HttpResponse<String> created = post("/payments", body, key);

        PaymentResponse response = STRICT.readValue(created.body(), PaymentResponse.class);
        assertThat(response.getResultCode()).isEqualTo(PaymentResponse.ResultCodeEnum.REDIRECTSHOPPER);
        assertThat(response.getAction().getActualInstance()).isInstanceOf(CheckoutRedirectAction.class);
        CheckoutRedirectAction action = response.getAction().getCheckoutRedirectAction();
        assertThat(action.getType()).isEqualTo(CheckoutRedirectAction.TypeEnum.REDIRECT);
        assertThat(action.getMethod()).isEqualTo("GET");
        assertThat(action.getPaymentMethodType()).isEqualTo("scheme");
        assertThat(action.getUrl()).endsWith("/threeds/" + response.getPspReference());
        assertThat(adyen.returnUrlOf(response.getPspReference())).isEqualTo("https://shop.example/back?order=7");
        assertThat(adyen.stateOf(response.getPspReference())).isEqualTo(FakeAdyen.AWAITING_SHOPPER);
        assertThat(adyen.takeNotifications()).as("nothing decided yet").isEmpty();

        HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create(action.getUrl())).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("id=\"approve\"", "id=\"refuse\"", "4200 EUR");
        HttpResponse<String> approved = decide(action.getUrl(), "approve");
        assertThat(approved.statusCode()).isEqualTo(302);
        String location = approved.headers().firstValue("Location").orElseThrow();
        assertThat(location).startsWith("https://shop.example/back?order=7&redirectResult=");
        assertThat(decide(action.getUrl(), "approve").statusCode()).as("decided once").isEqualTo(409);
        List<Map<String, Object>> sent = adyen.takeNotifications();
        NotificationRequestItem item = NotificationRequest.fromJson(FakeAdyen.notification(ACCOUNT, HMAC_KEY, sent))
                .getNotificationItems().get(0);
        assertThat(item.getEventCode()).isEqualTo("AUTHORISATION");
        assertThat(item.isSuccess()).isTrue();
        assertThat(item.getPspReference()).isEqualTo(response.getPspReference());

        String redirectResult = location.substring(location.indexOf("redirectResult=") + "redirectResult=".length());
        String details = "{\"details\": {\"redirectResult\": \"" + redirectResult + "\"}}";
        String detailsKey = "key_" + UUID.randomUUID();
        HttpResponse<String> detailed = post("/payments/details", details, detailsKey);
        assertThat(detailed.statusCode()).isEqualTo(200);
        PaymentDetailsResponse outcome = STRICT.readValue(detailed.body(), PaymentDetailsResponse.class);
        assertThat(outcome.getResultCode()).isEqualTo(PaymentDetailsResponse.ResultCodeEnum.AUTHORISED);
        assertThat(outcome.getPspReference()).isEqualTo(response.getPspReference());
        assertThat(outcome.getMerchantReference()).isEqualTo("pay_afid16");
        assertThat(outcome.getAmount().getValue()).isEqualTo(4200L);
        assertThat(detailed.headers().firstValue("Idempotency-Key")).contains(detailsKey);
        assertThat(post("/payments/details", details, detailsKey).body()).isEqualTo(detailed.body());
        assertThat(adyen.detailsOf(response.getPspReference())).hasSize(1);
        assertThat(post("/payments/details", "{\"details\": {\"redirectResult\": \"forged\"}}",
                "key_" + UUID.randomUUID()).statusCode()).isEqualTo(422);
    }

    @Test
    void aRefusedChallengeIsARefusedDetailsAndANativeThreeDsIsAnIdentifyShopper() throws Exception {
        String body = payment("pay_afid17", FakeAdyen.THREE_DS + "_fid2").replaceFirst("\\{",
                "{\"returnUrl\": \"http://localhost/back\", ");
        PaymentResponse response = STRICT.readValue(post("/payments", body, "key_" + UUID.randomUUID()).body(),
                PaymentResponse.class);
        String location = decide(response.getAction().getCheckoutRedirectAction().getUrl(), "refuse").headers()
                .firstValue("Location").orElseThrow();
        String redirectResult = location.substring(location.indexOf("redirectResult=") + "redirectResult=".length());
        PaymentDetailsResponse refused = STRICT.readValue(post("/payments/details",
                "{\"details\": {\"redirectResult\": \"" + redirectResult + "\"}}", "key_" + UUID.randomUUID()).body(),
                PaymentDetailsResponse.class);
        assertThat(refused.getResultCode()).isEqualTo(PaymentDetailsResponse.ResultCodeEnum.REFUSED);
        assertThat(refused.getRefusalReason()).isNotBlank();
        assertThat(adyen.takeNotifications()).singleElement()
                .satisfies(item -> assertThat(item).containsEntry("success", false));

        PaymentResponse identify = STRICT.readValue(post("/payments", payment("pay_afid18",
                FakeAdyen.NATIVE_THREE_DS + "_fid"), "key_" + UUID.randomUUID()).body(), PaymentResponse.class);
        assertThat(identify.getResultCode()).isEqualTo(PaymentResponse.ResultCodeEnum.IDENTIFYSHOPPER);
        assertThat(identify.getAction().getActualInstance()).isInstanceOf(CheckoutThreeDS2Action.class);
    }

    private HttpResponse<String> decide(String pageUrl, String decision) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(pageUrl))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("decision=" + decision)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** An authorisation held for a later capture (`additionalData.manualCapture`), with the service's metadata. */
    private static String heldPayment(String reference) {
        return "{\"amount\": {\"currency\": \"EUR\", \"value\": 4200}, \"merchantAccount\": \"" + ACCOUNT + "\","
                + " \"reference\": \"" + reference + "\", \"paymentMethod\": {\"type\": \"scheme\","
                + " \"storedPaymentMethodId\": \"pm_stored_hold\"}, \"additionalData\": {\"manualCapture\": \"true\"},"
                + " \"metadata\": {\"paymentId\": \"" + reference + "\", \"attempt\": \"1\"}}";
    }

    private static String payment(String reference, String storedPaymentMethodId, String currency, long value) {
        return "{\"amount\": {\"currency\": \"" + currency + "\", \"value\": " + value + "}, \"merchantAccount\": \""
                + ACCOUNT + "\", \"reference\": \"" + reference + "\", \"paymentMethod\": {\"type\": \"scheme\","
                + " \"storedPaymentMethodId\": \"" + storedPaymentMethodId + "\"}}";
    }

    private static String payment(String reference, String storedPaymentMethodId) {
        String method = storedPaymentMethodId != null
                ? "{\"type\": \"scheme\", \"storedPaymentMethodId\": \"" + storedPaymentMethodId + "\"}"
                : "{\"type\": \"scheme\", \"number\": \"4111111111111111\", \"holderName\": \"REFUSED\"}";
        return """
                {"amount": {"currency": "EUR", "value": 4200}, "merchantAccount": "%s", "reference": "%s",
                 "paymentMethod": %s, "metadata": {"paymentId": "%s", "attempt": "1"}}"""
                .formatted(ACCOUNT, reference, method, reference);
    }

    private HttpResponse<String> post(String path, String json, String idempotencyKey) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(adyen.checkoutUrl() + path))
                .header("X-API-Key", KEY)
                .header("Idempotency-Key", idempotencyKey)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
