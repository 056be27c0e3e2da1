package com.payorch.fakes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.annotations.SerializedName;
import com.stripe.Stripe;
import com.stripe.model.Dispute;
import com.stripe.model.Event;
import com.stripe.model.PaymentIntent;
import com.stripe.model.PaymentIntentSearchResult;
import com.stripe.model.Refund;
import com.stripe.model.RefundCollection;
import com.stripe.model.StripeError;
import com.stripe.net.ApiResource;
import com.stripe.net.Webhook;
import java.lang.reflect.Field;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Every kind of body {@link FakeStripe} answers (and every event it builds) is read with stripe-java's own models
 * ({@code ApiResource.GSON}, the SDK's deserializer) in a strict way: a field the model does not know fails the
 * test (Gson would silently drop it), and the fields the service maps are populated. So the fake cannot drift from
 * the shapes the SDK (generated from Stripe's OpenAPI spec3) expects. Also Stripe's headers and idempotency rules.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FakeStripeFidelityIT {

    private static final String KEY = "sk_test_51FakeFidelityKeyDoNotLog0008";
    private static final String WEBHOOK_SECRET = "whsec_FakeFidelitySecret0008";

    private final FakeStripe stripe = new FakeStripe(0).acceptKey(KEY);
    private final HttpClient http = HttpClient.newHttpClient();

    @AfterAll
    void stop() {
        stripe.close();
    }

    @Test
    void theStrictCheckRejectsAFieldTheModelDoesNotKnow() {
        assertThatThrownBy(() -> strictly("{\"id\": \"pi_1\", \"not_a_field\": 1}", PaymentIntent.class))
                .isInstanceOf(AssertionError.class).hasMessageContaining("not_a_field");
    }

    @Test
    void aSucceededIntentIsAPaymentIntentAndItsReplayIsTheSameBodyWithStripesReplayHeaders() throws Exception {
        String key = "key_" + UUID.randomUUID();
        String form = create("pm_card_visa_fid", "pay_fid1");
        HttpResponse<String> first = post("/v1/payment_intents", form, key);

        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(first.headers().firstValue("Request-Id")).hasValueSatisfying(id -> assertThat(id).startsWith("req_"));
        assertThat(first.headers().firstValue("Stripe-Version")).contains(Stripe.API_VERSION);
        assertThat(first.headers().firstValue("Idempotency-Key")).contains(key);
        PaymentIntent intent = strictly(first.body(), PaymentIntent.class);
        assertThat(intent.getId()).startsWith("pi_");
        assertThat(intent.getObject()).isEqualTo("payment_intent");
        assertThat(intent.getStatus()).isEqualTo("succeeded");
        assertThat(intent.getAmount()).isEqualTo(4200L);
        assertThat(intent.getAmountReceived()).isEqualTo(4200L);
        assertThat(intent.getCurrency()).isEqualTo("eur");
        assertThat(intent.getMetadata()).containsEntry("payment_id", "pay_fid1").containsEntry("attempt", "1");
        assertThat(intent.getLatestCharge()).startsWith("ch_");
        assertThat(intent.getPaymentMethod()).isEqualTo("pm_card_visa_fid");
        assertThat(intent.getLastPaymentError()).isNull();

        HttpResponse<String> replay = post("/v1/payment_intents", form, key);
        assertThat(replay.statusCode()).isEqualTo(200);
        assertThat(replay.body()).isEqualTo(first.body());
        assertThat(replay.headers().firstValue("Idempotent-Replayed")).contains("true");
        assertThat(replay.headers().firstValue("Original-Request")).isEqualTo(first.headers().firstValue("Request-Id"));
        assertThat(stripe.chargesFor("pay_fid1")).isEqualTo(1);

        HttpResponse<String> other = post("/v1/payment_intents", create("pm_card_visa_fid", "pay_fid1b"), key);
        assertThat(other.statusCode()).isEqualTo(400);
        StripeError conflict = error(other.body());
        assertThat(conflict.getType()).isEqualTo("idempotency_error");
        assertThat(conflict.getMessage()).contains(key);
        assertThat(stripe.intentsFor("pay_fid1b")).isZero();

        HttpResponse<String> retrieved = get("/v1/payment_intents/" + intent.getId());
        assertThat(strictly(retrieved.body(), PaymentIntent.class).getId()).isEqualTo(intent.getId());
    }

    @Test
    void aDeclineIsA402CardErrorCarryingThePaymentIntentAndIsReplayedAsSuch() throws Exception {
        String key = "key_" + UUID.randomUUID();
        String form = create("pm_card_chargeDeclined_fid", "pay_fid2");
        HttpResponse<String> declined = post("/v1/payment_intents", form, key);

        assertThat(declined.statusCode()).isEqualTo(402);
        StripeError error = error(declined.body());
        assertThat(error.getType()).isEqualTo("card_error");
        assertThat(error.getCode()).isEqualTo("card_declined");
        assertThat(error.getDeclineCode()).isEqualTo("generic_decline");
        assertThat(error.getCharge()).startsWith("ch_");
        assertThat(error.getPaymentMethod().getId()).isEqualTo("pm_card_chargeDeclined_fid");
        PaymentIntent intent = error.getPaymentIntent();
        assertThat(intent.getStatus()).isEqualTo("requires_payment_method");
        assertThat(intent.getMetadata()).containsEntry("payment_id", "pay_fid2");
        assertThat(intent.getLastPaymentError().getDeclineCode()).isEqualTo("generic_decline");
        JsonObject nested = JsonParser.parseString(declined.body()).getAsJsonObject().getAsJsonObject("error");
        assertNoUnknownFields(nested.getAsJsonObject("payment_intent"), PaymentIntent.class, "error.payment_intent");
        assertNoUnknownFields(nested.getAsJsonObject("payment_intent").getAsJsonObject("last_payment_error"),
                StripeError.class, "error.payment_intent.last_payment_error");

        HttpResponse<String> replay = post("/v1/payment_intents", form, key);
        assertThat(replay.statusCode()).isEqualTo(402);
        assertThat(replay.body()).isEqualTo(declined.body());
        assertThat(stripe.chargesFor("pay_fid2")).isZero();
    }

    @Test
    void requiresActionAndProcessingIntentsAreIntentsWithThoseStatuses() throws Exception {
        PaymentIntent action = strictly(post("/v1/payment_intents",
                create("pm_card_authenticationRequired_fid", "pay_fid3"), "key_" + UUID.randomUUID()).body(),
                PaymentIntent.class);
        assertThat(action.getStatus()).isEqualTo("requires_action");
        assertThat(action.getNextAction().getType()).isEqualTo("use_stripe_sdk");

        PaymentIntent processing = strictly(post("/v1/payment_intents",
                create("pm_card_processing_fid", "pay_fid4"), "key_" + UUID.randomUUID()).body(),
                PaymentIntent.class);
        assertThat(processing.getStatus()).isEqualTo("processing");

        Map<String, Object> failed = stripe.settle(processing.getId(), "requires_payment_method");
        PaymentIntent settled = strictly(get("/v1/payment_intents/" + processing.getId()).body(), PaymentIntent.class);
        assertThat(settled.getStatus()).isEqualTo(failed.get("status"));
        assertThat(settled.getLastPaymentError().getDeclineCode()).isEqualTo("insufficient_funds");
    }

    @Test
    void a500AfterTheChargeIsSavedAndReplayedForTheKeyAsStripeDocumentsForApiV1() throws Exception {
        String key = "key_" + UUID.randomUUID();
        String form = create("pm_card_visa_fid500", "pay_fid5");
        stripe.failNext("pm_card_visa_fid500", FakeStripe.Failure.ERROR_500_AFTER_CHARGE);

        HttpResponse<String> first = post("/v1/payment_intents", form, key);
        assertThat(first.statusCode()).isEqualTo(500);
        assertThat(error(first.body()).getType()).isEqualTo("api_error");
        HttpResponse<String> replay = post("/v1/payment_intents", form, key);
        assertThat(replay.statusCode()).isEqualTo(500);
        assertThat(replay.headers().firstValue("Idempotent-Replayed")).contains("true");
        assertThat(stripe.chargesFor("pay_fid5")).as("charged once, though every answer is a 500").isEqualTo(1);

        // Only a look-up tells: the search finds the one charged PaymentIntent.
        String query = URLEncoder.encode("metadata['payment_id']:'pay_fid5' AND metadata['attempt']:'1'",
                StandardCharsets.UTF_8);
        HttpResponse<String> search = get("/v1/payment_intents/search?query=" + query);
        PaymentIntentSearchResult found = strictly(search.body(), PaymentIntentSearchResult.class);
        assertThat(found.getObject()).isEqualTo("search_result");
        assertThat(found.getData()).singleElement().satisfies(i -> assertThat(i.getStatus()).isEqualTo("succeeded"));
        assertNoUnknownFields(JsonParser.parseString(search.body()).getAsJsonObject().getAsJsonArray("data").get(0)
                .getAsJsonObject(), PaymentIntent.class, "data[0]");
    }

    @Test
    void a500BeforeExecutionSavesNothingAndTheSameKeyThenCharges() throws Exception {
        String key = "key_" + UUID.randomUUID();
        String form = create("pm_card_visa_fid500b", "pay_fid6");
        stripe.failNext("pm_card_visa_fid500b", FakeStripe.Failure.ERROR_500_BEFORE_CHARGE);

        assertThat(post("/v1/payment_intents", form, key).statusCode()).isEqualTo(500);
        HttpResponse<String> retry = post("/v1/payment_intents", form, key);
        assertThat(retry.statusCode()).isEqualTo(200);
        assertThat(retry.headers().firstValue("Idempotent-Replayed")).isEmpty();
        assertThat(stripe.chargesFor("pay_fid6")).isEqualTo(1);
    }

    @Test
    void errorsForABadKeyAndAMissingIntentAreStripeErrors() throws Exception {
        HttpResponse<String> unauthorized = http.send(HttpRequest.newBuilder(URI.create(stripe.baseUrl()
                        + "/v1/payment_intents/pi_x")).header("Authorization", "Bearer sk_test_NotAKnownKey1234").GET()
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(unauthorized.statusCode()).isEqualTo(401);
        StripeError badKey = error(unauthorized.body());
        assertThat(badKey.getType()).isEqualTo("invalid_request_error");
        assertThat(badKey.getMessage()).doesNotContain("NotAKnownKey");

        HttpResponse<String> missing = get("/v1/payment_intents/pi_DoesNotExist");
        assertThat(missing.statusCode()).isEqualTo(404);
        StripeError notFound = error(missing.body());
        assertThat(notFound.getCode()).isEqualTo("resource_missing");
        assertThat(notFound.getParam()).isEqualTo("intent");
    }

    @Test
    void refundsAndTheirListAreRefundObjectsAndARefundKeyIsIdempotentToo() throws Exception {
        PaymentIntent intent = strictly(post("/v1/payment_intents", create("pm_card_visa_fidr", "pay_fid7"),
                "key_" + UUID.randomUUID()).body(), PaymentIntent.class);
        String refundKey = "ref_" + UUID.randomUUID();
        String form = "payment_intent=" + intent.getId() + "&amount=1000&metadata[refund_id]=" + refundKey;
        HttpResponse<String> created = post("/v1/refunds", form, refundKey);

        Refund refund = strictly(created.body(), Refund.class);
        assertThat(refund.getId()).startsWith("re_");
        assertThat(refund.getObject()).isEqualTo("refund");
        assertThat(refund.getStatus()).isEqualTo("succeeded");
        assertThat(refund.getAmount()).isEqualTo(1000L);
        assertThat(refund.getPaymentIntent()).isEqualTo(intent.getId());
        assertThat(refund.getCharge()).isEqualTo(intent.getLatestCharge());
        assertThat(refund.getMetadata()).containsEntry("refund_id", refundKey);
        assertThat(post("/v1/refunds", form, refundKey).body()).isEqualTo(created.body());
        assertThat(post("/v1/refunds", form.replace("amount=1000", "amount=999"), refundKey).statusCode())
                .as("same key, other parameters").isEqualTo(400);

        HttpResponse<String> list = get("/v1/refunds?payment_intent=" + intent.getId());
        RefundCollection refunds = strictly(list.body(), RefundCollection.class);
        assertThat(refunds.getData()).singleElement().satisfies(r -> assertThat(r.getId()).isEqualTo(refund.getId()));

        HttpResponse<String> notRefundable = post("/v1/refunds", "payment_intent=pi_Unknown&amount=5",
                "ref_" + UUID.randomUUID());
        assertThat(notRefundable.statusCode()).isEqualTo(400);
        assertThat(error(notRefundable.body()).getCode()).isEqualTo("charge_not_refundable");
    }

    @Test
    void eventsAreSignedEventsWhoseObjectTheSdkReadsWhenTheApiVersionsMatch() throws Exception {
        PaymentIntent intent = strictly(post("/v1/payment_intents", create("pm_card_processing_fide", "pay_fid8"),
                "key_" + UUID.randomUUID()).body(), PaymentIntent.class);
        Map<String, Object> succeeded = stripe.settle(intent.getId(), "succeeded");
        String payload = FakeStripe.event("evt_fid8", "payment_intent.succeeded", succeeded, Stripe.API_VERSION);

        Event event = Webhook.constructEvent(payload,
                FakeStripe.sign(payload, WEBHOOK_SECRET, Instant.now().getEpochSecond()), WEBHOOK_SECRET);
        assertNoUnknownFields(JsonParser.parseString(payload).getAsJsonObject(), Event.class, "event");
        assertNoUnknownFields(JsonParser.parseString(payload).getAsJsonObject().getAsJsonObject("data")
                .getAsJsonObject("object"), PaymentIntent.class, "event.data.object");
        assertThat(event.getId()).isEqualTo("evt_fid8");
        assertThat(event.getType()).isEqualTo("payment_intent.succeeded");
        assertThat(event.getDataObjectDeserializer().getObject()).get()
                .isInstanceOfSatisfying(PaymentIntent.class, read -> {
                    assertThat(read.getId()).isEqualTo(intent.getId());
                    assertThat(read.getStatus()).isEqualTo("succeeded");
                    assertThat(read.getMetadata()).containsEntry("payment_id", "pay_fid8");
                });

        String older = FakeStripe.event("evt_fid8b", "payment_intent.succeeded", succeeded, "2020-08-27");
        Event olderEvent = ApiResource.GSON.fromJson(older, Event.class);
        assertThat(olderEvent.getDataObjectDeserializer().getObject())
                .as("another API version: the SDK's typed object is empty (the service reads the raw JSON)").isEmpty();
    }

    @Test
    void aManualIntentIsHeldThenCapturedPartiallyOrCanceledAsStripesModelsReadThemAndItsEventsToo() throws Exception {
        String form = create("pm_card_visa_fidhold", "pay_fid_hold") + "&capture_method=manual";
        PaymentIntent held = strictly(post("/v1/payment_intents", form, "key_" + UUID.randomUUID()).body(),
                PaymentIntent.class);
        assertThat(held.getStatus()).isEqualTo("requires_capture");
        assertThat(held.getCaptureMethod()).isEqualTo("manual");
        assertThat(held.getAmountCapturable()).isEqualTo(4200L);
        assertThat(held.getAmountReceived()).isZero();
        assertThat(held.getLatestCharge()).startsWith("ch_");

        String captureKey = "key_" + UUID.randomUUID();
        HttpResponse<String> captured = post("/v1/payment_intents/" + held.getId() + "/capture",
                "amount_to_capture=4000", captureKey);
        assertThat(captured.statusCode()).isEqualTo(200);
        PaymentIntent taken = strictly(captured.body(), PaymentIntent.class);
        assertThat(taken.getStatus()).isEqualTo("succeeded");
        assertThat(taken.getAmount()).isEqualTo(4200L);
        assertThat(taken.getAmountReceived()).isEqualTo(4000L);
        assertThat(taken.getAmountCapturable()).isZero();
        HttpResponse<String> replay = post("/v1/payment_intents/" + held.getId() + "/capture",
                "amount_to_capture=4000", captureKey);
        assertThat(replay.body()).isEqualTo(captured.body());
        assertThat(replay.headers().firstValue("Idempotent-Replayed")).contains("true");
        assertThat(stripe.capturesFor("pay_fid_hold")).isEqualTo(1);

        HttpResponse<String> again = post("/v1/payment_intents/" + held.getId() + "/capture", "",
                "key_" + UUID.randomUUID());
        assertThat(again.statusCode()).isEqualTo(400);
        StripeError unexpected = error(again.body());
        assertThat(unexpected.getType()).isEqualTo("invalid_request_error");
        assertThat(unexpected.getCode()).isEqualTo("payment_intent_unexpected_state");
        assertThat(unexpected.getPaymentIntent().getStatus()).isEqualTo("succeeded");
        assertNoUnknownFields(JsonParser.parseString(again.body()).getAsJsonObject().getAsJsonObject("error")
                .getAsJsonObject("payment_intent"), PaymentIntent.class, "error.payment_intent");

        PaymentIntent other = strictly(post("/v1/payment_intents", create("pm_card_visa_fidhold2", "pay_fid_hold2")
                + "&capture_method=manual", "key_" + UUID.randomUUID()).body(), PaymentIntent.class);
        HttpResponse<String> tooMuch = post("/v1/payment_intents/" + other.getId() + "/capture",
                "amount_to_capture=4201", "key_" + UUID.randomUUID());
        assertThat(tooMuch.statusCode()).isEqualTo(400);
        assertThat(error(tooMuch.body()).getCode()).isEqualTo("amount_too_large");
        PaymentIntent canceled = strictly(post("/v1/payment_intents/" + other.getId() + "/cancel",
                "cancellation_reason=requested_by_customer", "key_" + UUID.randomUUID()).body(), PaymentIntent.class);
        assertThat(canceled.getStatus()).isEqualTo("canceled");
        assertThat(canceled.getCancellationReason()).isEqualTo("requested_by_customer");
        assertThat(canceled.getCanceledAt()).isNotNull();
        assertThat(canceled.getAmountCapturable()).isZero();
        HttpResponse<String> cancelAgain = post("/v1/payment_intents/" + other.getId() + "/cancel", "",
                "key_" + UUID.randomUUID());
        assertThat(error(cancelAgain.body()).getCode()).isEqualTo("payment_intent_unexpected_state");
        assertThat(stripe.cancelsFor("pay_fid_hold2")).isEqualTo(1);

        for (String intentId : new String[] {held.getId(), other.getId()}) {
            for (FakeStripe.SentEvent sent : stripe.eventsOf(intentId)) {
                Event event = Webhook.constructEvent(sent.payload(),
                        FakeStripe.sign(sent.payload(), WEBHOOK_SECRET, Instant.now().getEpochSecond()),
                        WEBHOOK_SECRET);
                assertNoUnknownFields(JsonParser.parseString(sent.payload()).getAsJsonObject().getAsJsonObject("data")
                        .getAsJsonObject("object"), PaymentIntent.class, "event.data.object");
                assertThat(event.getDataObjectDeserializer().getObject()).get()
                        .isInstanceOfSatisfying(PaymentIntent.class, read -> assertThat(read.getId()).isEqualTo(intentId));
            }
        }
        assertThat(stripe.eventsOf(held.getId())).extracting(FakeStripe.SentEvent::type)
                .containsExactly("payment_intent.amount_capturable_updated", "payment_intent.succeeded");
        assertThat(stripe.eventsOf(other.getId())).extracting(FakeStripe.SentEvent::type)
                .containsExactly("payment_intent.amount_capturable_updated", "payment_intent.canceled");
    }

    @Test
    void aThreeDsRedirectIsARedirectToUrlNextActionAndItsOutcomesAndEventsAreWhatTheModelsRead() throws Exception {
        String returnUrl = "https://shop.example/back?payment_id=pay_fid_3ds";
        String form = create("pm_card_authenticationRequired_fid3ds", "pay_fid_3ds") + "&return_url="
                + URLEncoder.encode(returnUrl, StandardCharsets.UTF_8);
        String body = post("/v1/payment_intents", form, "key_" + UUID.randomUUID()).body();
        PaymentIntent waiting = strictly(body, PaymentIntent.class);
        JsonObject next = JsonParser.parseString(body).getAsJsonObject().getAsJsonObject("next_action");
        assertNoUnknownFields(next, PaymentIntent.NextAction.class, "next_action");
        assertNoUnknownFields(next.getAsJsonObject("redirect_to_url"), PaymentIntent.NextAction.RedirectToUrl.class,
                "next_action.redirect_to_url");
        assertThat(waiting.getStatus()).isEqualTo("requires_action");
        assertThat(waiting.getNextAction().getType()).isEqualTo("redirect_to_url");
        assertThat(waiting.getNextAction().getRedirectToUrl().getUrl())
                .isEqualTo(stripe.baseUrl() + "/3ds/" + waiting.getId());
        assertThat(waiting.getNextAction().getRedirectToUrl().getReturnUrl()).isEqualTo(returnUrl);

        stripe.fail(waiting.getId());
        String failedBody = get("/v1/payment_intents/" + waiting.getId()).body();
        PaymentIntent failed = strictly(failedBody, PaymentIntent.class);
        assertNoUnknownFields(JsonParser.parseString(failedBody).getAsJsonObject()
                .getAsJsonObject("last_payment_error"), StripeError.class, "last_payment_error");
        assertThat(failed.getStatus()).isEqualTo("requires_payment_method");
        assertThat(failed.getNextAction()).isNull();
        assertThat(failed.getLastPaymentError().getCode()).isEqualTo("payment_intent_authentication_failure");

        PaymentIntent manual = strictly(post("/v1/payment_intents", create("pm_card_authenticationRequired_fid3dm",
                "pay_fid_3dm") + "&capture_method=manual&return_url=" + URLEncoder.encode(returnUrl,
                StandardCharsets.UTF_8), "key_" + UUID.randomUUID()).body(), PaymentIntent.class);
        stripe.approve(manual.getId());
        PaymentIntent held = strictly(get("/v1/payment_intents/" + manual.getId()).body(), PaymentIntent.class);
        assertThat(held.getStatus()).isEqualTo("requires_capture");
        assertThat(held.getAmountCapturable()).isEqualTo(4200L);

        for (String intentId : new String[] {waiting.getId(), manual.getId()}) {
            for (FakeStripe.SentEvent sent : stripe.eventsOf(intentId)) {
                Event event = Webhook.constructEvent(sent.payload(),
                        FakeStripe.sign(sent.payload(), WEBHOOK_SECRET, Instant.now().getEpochSecond()),
                        WEBHOOK_SECRET);
                JsonObject object = JsonParser.parseString(sent.payload()).getAsJsonObject().getAsJsonObject("data")
                        .getAsJsonObject("object");
                assertNoUnknownFields(object, PaymentIntent.class, "event.data.object");
                if (object.get("next_action").isJsonObject()) {
                    assertNoUnknownFields(object.getAsJsonObject("next_action"), PaymentIntent.NextAction.class,
                            "event.data.object.next_action");
                }
                assertThat(event.getDataObjectDeserializer().getObject()).get()
                        .isInstanceOfSatisfying(PaymentIntent.class, read -> assertThat(read.getId()).isEqualTo(intentId));
            }
        }
        assertThat(stripe.eventsOf(waiting.getId())).extracting(FakeStripe.SentEvent::type)
                .containsExactly("payment_intent.requires_action", "payment_intent.payment_failed");
        assertThat(stripe.eventsOf(manual.getId())).extracting(FakeStripe.SentEvent::type)
                .containsExactly("payment_intent.requires_action", "payment_intent.amount_capturable_updated");
    }

    // --- issue 22: what the fake learnt from Stripe's docs; each on its own fake (they change its clock) ---

    @Test
    void searchSeesAnIntentOnlyAfterTheIndexDelayWhileRetrieveSeesItAtOnceAndBothAreCounted() throws Exception {
        try (FakeStripe delayed = new FakeStripe(0).acceptKey(KEY).searchIndexDelay(Duration.ofSeconds(30))) {
            PaymentIntent intent = strictly(post(delayed, "/v1/payment_intents", create("pm_card_visa_fidx",
                    "pay_fidx"), "key_" + UUID.randomUUID()).body(), PaymentIntent.class);
            String query = "/v1/payment_intents/search?query=" + URLEncoder.encode(
                    "metadata['payment_id']:'pay_fidx' AND metadata['attempt']:'1'", StandardCharsets.UTF_8);

            PaymentIntentSearchResult notYet = strictly(get(delayed, query).body(), PaymentIntentSearchResult.class);
            assertThat(notYet.getObject()).isEqualTo("search_result");
            assertThat(notYet.getData()).isEmpty();
            PaymentIntent retrieved = strictly(get(delayed, "/v1/payment_intents/" + intent.getId()).body(),
                    PaymentIntent.class);
            assertThat(retrieved.getMetadata()).containsEntry("payment_id", "pay_fidx").containsEntry("attempt", "1");

            delayed.advanceClock(Duration.ofSeconds(30));
            PaymentIntentSearchResult found = strictly(get(delayed, query).body(), PaymentIntentSearchResult.class);
            assertThat(found.getData()).singleElement().satisfies(i -> assertThat(i.getId()).isEqualTo(intent.getId()));
            assertThat(delayed.searches()).isEqualTo(2);
            assertThat(delayed.retrieves()).isEqualTo(1);

            delayed.failSearches(true);
            HttpResponse<String> failed = get(delayed, query);
            assertThat(failed.statusCode()).isEqualTo(500);
            assertThat(error(failed.body()).getType()).isEqualTo("api_error");
            assertThat(delayed.searches()).isEqualTo(3);
        }
    }

    @Test
    void aKeyReusedAfterStripePrunedItMakesANewPaymentIntentWithoutReplayHeaders() throws Exception {
        try (FakeStripe forgetful = new FakeStripe(0).acceptKey(KEY).forgetKeysAfter(Duration.ofHours(24))) {
            String key = "key_" + UUID.randomUUID();
            String form = create("pm_card_visa_fidk", "pay_fidk");
            PaymentIntent first = strictly(post(forgetful, "/v1/payment_intents", form, key).body(),
                    PaymentIntent.class);

            forgetful.advanceClock(Duration.ofHours(24));
            HttpResponse<String> again = post(forgetful, "/v1/payment_intents", form, key);
            assertThat(again.statusCode()).isEqualTo(200);
            assertThat(again.headers().firstValue("Idempotent-Replayed")).isEmpty();
            PaymentIntent second = strictly(again.body(), PaymentIntent.class);
            assertThat(second.getId()).isNotEqualTo(first.getId());
            assertThat(forgetful.chargesFor("pay_fidk")).isEqualTo(2);
            assertThat(forgetful.idempotencyKeyOf(second.getId())).isEqualTo(key);
        }
    }

    @Test
    void amountsStripeCannotTakeAre400InvalidRequestErrorsOnTheAmountAndCreateNothing() throws Exception {
        Map<String, String> refused = Map.of(
                "amount=123456789&currency=usd", "amount_too_large",
                "amount=0&currency=usd", "amount_too_small",
                "amount=550&currency=isk", "invalid_charge_amount_no_decimal_compatible",
                "amount=5124&currency=kwd", "invalid_charge_amount");
        for (Map.Entry<String, String> amount : refused.entrySet()) {
            String paymentId = "pay_fida_" + amount.getValue();
            String form = create("pm_card_visa_fida", paymentId).replace("amount=4200&currency=eur", amount.getKey());
            String key = "key_" + UUID.randomUUID();
            HttpResponse<String> answer = post("/v1/payment_intents", form, key);

            assertThat(answer.statusCode()).as(amount.getKey()).isEqualTo(400);
            StripeError error = error(answer.body());
            assertThat(error.getType()).isEqualTo("invalid_request_error");
            assertThat(error.getCode()).as(amount.getKey()).isEqualTo(amount.getValue());
            assertThat(error.getParam()).isEqualTo("amount");
            assertThat(error.getDocUrl()).startsWith("https://stripe.com/docs/error-codes/");
            assertThat(stripe.intentsFor(paymentId)).isZero();
            assertThat(stripe.createdWith(key)).as("a refused amount saves nothing under the key").isEmpty();
        }
        PaymentIntent whole = strictly(post("/v1/payment_intents", create("pm_card_visa_fida", "pay_fida_ok")
                .replace("amount=4200&currency=eur", "amount=99999900&currency=isk"), "key_" + UUID.randomUUID())
                .body(), PaymentIntent.class);
        assertThat(whole.getAmount()).isEqualTo(99_999_900L);
    }

    @Test
    void aRefundFailedAfterItSucceededIsAFailedRefundInRefundFailedAndRefundUpdatedEvents() throws Exception {
        PaymentIntent intent = strictly(post("/v1/payment_intents", create("pm_card_visa_fidf", "pay_fidf"),
                "key_" + UUID.randomUUID()).body(), PaymentIntent.class);
        String refundKey = "ref_" + UUID.randomUUID();
        Refund refund = strictly(post("/v1/refunds", "payment_intent=" + intent.getId()
                + "&amount=4200&metadata[refund_id]=" + refundKey, refundKey).body(), Refund.class);
        assertThat(refund.getStatus()).isEqualTo("succeeded");

        Map<String, Object> failed = stripe.failRefund(refund.getId(), "expired_or_canceled_card");
        for (String type : new String[] {"refund.failed", "refund.updated"}) {
            String payload = FakeStripe.event("evt_fidf_" + type, type, failed, Stripe.API_VERSION);
            Event event = Webhook.constructEvent(payload,
                    FakeStripe.sign(payload, WEBHOOK_SECRET, Instant.now().getEpochSecond()), WEBHOOK_SECRET);
            assertNoUnknownFields(JsonParser.parseString(payload).getAsJsonObject().getAsJsonObject("data")
                    .getAsJsonObject("object"), Refund.class, type + " data.object");
            assertThat(event.getType()).isEqualTo(type);
            assertThat(event.getDataObjectDeserializer().getObject()).get()
                    .isInstanceOfSatisfying(Refund.class, read -> {
                        assertThat(read.getId()).isEqualTo(refund.getId());
                        assertThat(read.getStatus()).isEqualTo("failed");
                        assertThat(read.getFailureReason()).isEqualTo("expired_or_canceled_card");
                        assertThat(read.getFailureBalanceTransaction()).startsWith("txn_");
                        assertThat(read.getMetadata()).containsEntry("refund_id", refundKey);
                    });
        }
        assertThat(strictly(get("/v1/refunds?payment_intent=" + intent.getId()).body(), RefundCollection.class)
                .getData()).singleElement().satisfies(r -> assertThat(r.getStatus()).isEqualTo("failed"));
    }

    @Test
    void disputeEventsCarryADisputeTheSdkReadsStrictlyAboutThePaymentIntent() throws Exception {
        PaymentIntent intent = strictly(post("/v1/payment_intents", create("pm_card_visa_fiddp", "pay_fiddp"),
                "key_" + UUID.randomUUID()).body(), PaymentIntent.class);
        Map<String, Object> opened = stripe.dispute(intent.getId(), 3000, "fraudulent");
        String disputeId = (String) opened.get("id");
        stripe.closeDispute(disputeId, "lost");
        stripe.closeDispute(disputeId, "won");
        Map<String, Object> inquiry = stripe.dispute(intent.getId(), 1200, "general", false);
        stripe.closeDispute((String) inquiry.get("id"), "warning_closed");

        assertThat(stripe.disputeEventsOf(disputeId)).extracting(FakeStripe.SentEvent::type).containsExactly(
                "charge.dispute.created", "charge.dispute.funds_withdrawn", "charge.dispute.closed",
                "charge.dispute.closed", "charge.dispute.funds_reinstated");
        assertThat(stripe.disputeEventsOf((String) inquiry.get("id"))).extracting(FakeStripe.SentEvent::type)
                .containsExactly("charge.dispute.created", "charge.dispute.closed");
        for (String id : new String[] {disputeId, (String) inquiry.get("id")}) {
            for (FakeStripe.SentEvent sent : stripe.disputeEventsOf(id)) {
                Event event = Webhook.constructEvent(sent.payload(),
                        FakeStripe.sign(sent.payload(), WEBHOOK_SECRET, Instant.now().getEpochSecond()),
                        WEBHOOK_SECRET);
                JsonObject object = JsonParser.parseString(sent.payload()).getAsJsonObject().getAsJsonObject("data")
                        .getAsJsonObject("object");
                assertNoUnknownFields(object, Dispute.class, sent.type() + " data.object");
                assertNoUnknownFields(object.getAsJsonObject("evidence"), Dispute.Evidence.class, "evidence");
                assertNoUnknownFields(object.getAsJsonObject("evidence_details"), Dispute.EvidenceDetails.class,
                        "evidence_details");
                assertNoUnknownFields(object.getAsJsonObject("payment_method_details"),
                        Dispute.PaymentMethodDetails.class, "payment_method_details");
                assertNoUnknownFields(object.getAsJsonObject("payment_method_details").getAsJsonObject("card"),
                        Dispute.PaymentMethodDetails.Card.class, "payment_method_details.card");
                assertThat(event.getType()).isEqualTo(sent.type());
                assertThat(event.getDataObjectDeserializer().getObject()).get()
                        .isInstanceOfSatisfying(Dispute.class, read -> {
                            assertThat(read.getId()).isEqualTo(id).startsWith("dp_");
                            assertThat(read.getPaymentIntent()).isEqualTo(intent.getId());
                            assertThat(read.getCharge()).isEqualTo(intent.getLatestCharge());
                            assertThat(read.getCurrency()).isEqualTo("eur");
                            assertThat(read.getEvidenceDetails().getDueBy()).isGreaterThan(Instant.now()
                                    .getEpochSecond());
                        });
            }
        }
        Dispute lostThenWon = ApiResource.GSON.fromJson(JsonParser.parseString(stripe.disputeEventsOf(disputeId)
                .get(2).payload()).getAsJsonObject().getAsJsonObject("data").getAsJsonObject("object"), Dispute.class);
        assertThat(lostThenWon.getStatus()).isEqualTo("lost");
        assertThat(lostThenWon.getAmount()).isEqualTo(3000L);
        assertThat(lostThenWon.getReason()).isEqualTo("fraudulent");
    }

    // --- helpers ---

    private static String create(String paymentMethod, String paymentId) {
        return "amount=4200&currency=eur&payment_method=" + paymentMethod
                + "&payment_method_types[0]=card&confirm=true&metadata[payment_id]=" + paymentId
                + "&metadata[attempt]=1";
    }

    private HttpResponse<String> post(String path, String form, String idempotencyKey) throws Exception {
        return post(stripe, path, form, idempotencyKey);
    }

    private HttpResponse<String> get(String pathAndQuery) throws Exception {
        return get(stripe, pathAndQuery);
    }

    private HttpResponse<String> post(FakeStripe stripe, String path, String form, String idempotencyKey)
            throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(stripe.baseUrl() + path))
                .header("Authorization", "Bearer " + KEY)
                .header("Idempotency-Key", idempotencyKey)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(FakeStripe stripe, String pathAndQuery) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(stripe.baseUrl() + pathAndQuery))
                .header("Authorization", "Bearer " + KEY).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The body read with the SDK's Gson into {@code type}, after checking it has no field the model lacks. */
    private static <T> T strictly(String body, Class<T> type) {
        assertNoUnknownFields(JsonParser.parseString(body).getAsJsonObject(), type, type.getSimpleName());
        return ApiResource.GSON.fromJson(body, type);
    }

    /** An error body `{"error": {...}}` as the SDK reads it. */
    private static StripeError error(String body) {
        JsonObject error = JsonParser.parseString(body).getAsJsonObject().getAsJsonObject("error");
        assertThat(JsonParser.parseString(body).getAsJsonObject().keySet()).containsExactly("error");
        assertNoUnknownFields(error, StripeError.class, "error");
        return ApiResource.GSON.fromJson(error, StripeError.class);
    }

    private static void assertNoUnknownFields(JsonObject json, Class<?> type, String where) {
        Set<String> known = new HashSet<>();
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field field : c.getDeclaredFields()) {
                SerializedName name = field.getAnnotation(SerializedName.class);
                // the SDK's Gson names unannotated fields lower_case_with_underscores
                known.add(name != null ? name.value() : field.getName().replaceAll("([A-Z])", "_$1").toLowerCase());
            }
        }
        Set<String> unknown = new TreeSet<>();
        for (Map.Entry<String, JsonElement> entry : json.entrySet()) {
            if (!known.contains(entry.getKey())) {
                unknown.add(entry.getKey());
            }
        }
        assertThat(unknown).as("fields of %s that stripe-java's %s does not know", where, type.getSimpleName())
                .isEmpty();
    }
}
