package com.payorch.fakes;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.extension.ResponseDefinitionTransformerV2;
import com.github.tomakehurst.wiremock.http.Fault;
import com.github.tomakehurst.wiremock.http.Request;
import com.github.tomakehurst.wiremock.http.RequestMethod;
import com.github.tomakehurst.wiremock.http.ResponseDefinition;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import com.stripe.net.Webhook;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.json.JsonMapper;

/**
 * A faithful fake of the part of Stripe's API the service uses, on WireMock (random port): `POST
 * /v1/payment_intents` (confirm=true), `GET /v1/payment_intents/{id}`, `GET /v1/payment_intents/search`, `POST
 * /v1/refunds` and `GET /v1/refunds?payment_intent=` (refunds succeed at once, those of a `pm_card_refundFails…`
 * intent fail with `declined`, those of a `pm_card_refundPending…` intent stay `pending`). Like Stripe:
 * <ul>
 *   <li>Bearer secret keys are checked (401 `invalid_request_error` otherwise, the key masked in the message);</li>
 *   <li>the same `Idempotency-Key` with the same parameters answers the saved response (one PaymentIntent, one
 *       charge), whatever its status, a 500 after execution included; with other parameters 400
 *       `idempotency_error`; a 500 before execution saves nothing;</li>
 *   <li>amounts are checked as Stripe does (https://docs.stripe.com/currencies): a positive integer
 *       ({@code amount_too_small}), at most 8 digits ({@code amount_too_large}: "no more than 99,999,999"), ISK in
 *       multiples of 100 and three-decimal currencies ending in 0 ({@link #AMOUNT_RULES});</li>
 *   <li>Search (`GET /v1/payment_intents/search`) sees a PaymentIntent only {@link #searchIndexDelay} after it was
 *       created (https://docs.stripe.com/search, "Data freshness": "data is searchable in under 1 minute", longer
 *       during an outage), and can be made to fail ({@link #failSearches}); retrieve by id sees everything at once.
 *       Both are counted ({@link #searches}, {@link #retrieves});</li>
 *   <li>an idempotency key is forgotten {@link #forgetKeysAfter} its first use: "You can remove keys from the
 *       system automatically after they're at least 24 hours old. We generate a new request if a key is reused
 *       after the original is pruned" (https://docs.stripe.com/idempotency): the same key then makes a NEW
 *       PaymentIntent. The fake's clock is the system's, moved on by {@link #advanceClock} (no sleeps);</li>
 *   <li>a refund can fail after it succeeded ({@link #failRefund}), as Stripe reports with `refund.failed` and
 *       `refund.updated` (status `failed`); {@link #event} builds those events from the Refund object;</li>
 *   <li>holds: `capture_method=manual` authorises only (`requires_capture`, `amount_capturable` = the amount), then
 *       `POST /v1/payment_intents/{id}/capture` (`amount_to_capture`, partial or whole, once) or `/cancel` (see
 *       {@code capture} and {@code cancel} below for Stripe's rules), each idempotent on its key like a create; the
 *       events Stripe sends about a hold (`payment_intent.amount_capturable_updated`, `.succeeded` after a capture,
 *       `.canceled`) are recorded ({@link #eventsOf}); an authorisation can expire ({@link #expireAuthorization})
 *       and a capture's answer can be lost ({@link #failNextCapture});</li>
 *   <li>test payment methods (a token's prefix decides, so each test may use its own token): `pm_card_visa` (and
 *       any other) succeeds, `pm_card_chargeDeclined` is a 402 card error
 *       (`card_declined` / `generic_decline`) carrying the PaymentIntent, `pm_card_authenticationRequired` ends
 *       `requires_action` (`payment_intent.requires_action` sent): confirmed with a `return_url`, its `next_action`
 *       is `redirect_to_url` to the fake's 3-D Secure page ({@code GET /3ds/{pi}}, answered by
 *       {@code POST /3ds/{pi}} with `decision=approve|fail`, or {@link #approve} / {@link #fail} in a test), else
 *       `use_stripe_sdk`; `pm_card_processing` (a fake-only token) stays `processing` until {@link #settle};</li>
 *   <li>disputes: {@link #dispute} opens one against a charge (`charge.dispute.created`, `.funds_withdrawn` for a
 *       chargeback), {@link #closeDispute} closes it (`charge.dispute.closed`, `.funds_reinstated` when won); their
 *       events are recorded ({@link #disputeEventsOf}).</li>
 * </ul>
 * Bodies follow Stripe's published OpenAPI (repository `stripe/openapi`): the objects are shaped as
 * `openapi/fixtures3.json`'s `resources.payment_intent`, `resources.refund` and `resources.event` (every field of the
 * fixture there, with our ids and values), errors as the `error` / `api_errors` schema (`type`, `code`,
 * `decline_code`, `message`, `param`, `doc_url`, `charge`, `payment_intent`, `payment_method`), lists as `list` and
 * `search_result`; every answer carries `Request-Id` and `Stripe-Version`, a replay `Idempotent-Replayed: true` and
 * `Original-Request`. {@code FakeStripeFidelityIT} reads every kind of body with stripe-java's own models and
 * rejects a field the SDK does not know. Faults are queued
 * with {@link #failNext}; events are built and signed like Stripe's with {@link #event} and {@link #sign}.
 * Kept self-contained so it can also run standalone (e.g. for a chaos harness).
 */
public final class FakeStripe implements AutoCloseable {

    /** A fault for the next create request. */
    public enum Failure {
        /** The PaymentIntent is created and charged, then the answer comes too late for the client's read time-out. */
        TIMEOUT_AFTER_CHARGE,
        /**
         * Charged, then HTTP 500; as Stripe documents for API v1 ("retries with the same key return the saved
         * response, including 500 errors"), the 500 is the saved result: every replay of the key answers it again.
         */
        ERROR_500_AFTER_CHARGE,
        /** HTTP 500 before anything is executed: nothing charged, nothing saved. */
        ERROR_500_BEFORE_CHARGE,
        /** 401 as for a revoked key, before anything is executed. */
        UNAUTHORIZED,
        /** The connection is reset after the request was read, charged first. */
        RESET_AFTER_CHARGE,
        /**
         * Charged (recorded, the idempotent result saved), then the answer is held for {@link #HOLD}: the window in
         * which a test kills the service between Stripe's charge and the service's commit.
         */
        HOLD_AFTER_CHARGE
    }

    /** How long a {@link Failure#HOLD_AFTER_CHARGE} answer is held. */
    public static final int HOLD = 120_000;

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Pattern INTENT_PATH = Pattern.compile("/v1/payment_intents/(pi_[A-Za-z0-9]+)");
    private static final Pattern HOLD_PATH = Pattern.compile("/v1/payment_intents/(pi_[A-Za-z0-9]+)/(capture|cancel)");
    /** The statuses a PaymentIntent can be cancelled in (https://docs.stripe.com/api/payment_intents/cancel). */
    private static final Set<String> CANCELABLE = Set.of("requires_payment_method", "requires_capture",
            "requires_confirmation", "requires_action", "processing");
    /** The `cancellation_reason` values the cancel endpoint takes. */
    private static final Set<String> CANCELLATION_REASONS = Set.of("duplicate", "fraudulent", "requested_by_customer",
            "abandoned");

    private final WireMockServer server;
    private final Set<String> validKeys = ConcurrentHashMap.newKeySet();
    private final Map<String, Map<String, Object>> intents = new LinkedHashMap<>();
    private final Map<String, Saved> idempotent = new HashMap<>();
    private final Map<String, Deque<Failure>> failures = new HashMap<>();
    private final List<String> charged = new ArrayList<>();
    /** The `Idempotency-Key` each PaymentIntent was created under (read by the chaos campaign's checker). */
    private final Map<String, String> intentKeys = new HashMap<>();
    private final int delayMillis;
    /** When each PaymentIntent was created, on the fake's clock (for the search index delay). */
    private final Map<String, Instant> createdAt = new HashMap<>();
    private Duration clockOffset = Duration.ZERO;
    private Duration searchIndexDelay = Duration.ZERO;
    private Duration keyLifetime;
    private boolean searchFails;
    /** Faults queued for the next capture of a PaymentIntent, by its id. */
    private final Map<String, Deque<Failure>> captureFailures = new HashMap<>();
    /** Captures executed (one per capture that ran, a replay under the same key is not one), by PaymentIntent id. */
    private final Map<String, List<Long>> captures = new HashMap<>();
    /** Cancels executed (a replay under the same key is not one), by PaymentIntent id. */
    private final Map<String, Integer> cancels = new HashMap<>();
    /** The events Stripe would send about holds, oldest first: type and the PaymentIntent as it was then. */
    private final List<SentEvent> sentEvents = new ArrayList<>();
    private int searches;
    private int retrieves;

    /**
     * An event Stripe sends: `evt_…`, its type, its object as it was when it happened, and the body Stripe posts (see
     * {@link #event}), fixed once so that a signature over it holds.
     */
    public record SentEvent(String id, String type, Map<String, Object> object, String payload) {
    }

    /** A saved idempotent result: the request it answered, its status, body and the original `Request-Id`. */
    private record Saved(String requestBody, int status, String body, String requestId, Instant at) {
    }

    /**
     * The amount rules from Stripe's "Supported currencies" page (https://docs.stripe.com/currencies): ISK is written
     * with two decimals but must be "evenly divisible by 100" (the ISK notice,
     * https://support.stripe.com/questions/deprecation-of-fractional-isk-charges-and-refunds, names the error
     * {@code invalid_charge_amount_no_decimal_compatible}); BHD, JOD, KWD, OMR and TND need "the least-significant
     * (last) digit to be 0"; "amount must be no more than 99,999,999".
     */
    public static final String AMOUNT_RULES = "https://docs.stripe.com/currencies";
    private static final Set<String> THREE_DECIMAL = Set.of("bhd", "jod", "kwd", "omr", "tnd");
    private static final long MAX_AMOUNT = 99_999_999L;

    /** Stripe's API version the fake's bodies follow (the one stripe-java 33.3.0 pins). */
    public static final String API_VERSION = com.stripe.Stripe.API_VERSION;

    /** @param delayMillis how late a {@link Failure#TIMEOUT_AFTER_CHARGE} answer comes (above the client's read time-out) */
    public FakeStripe(int delayMillis) {
        this.delayMillis = delayMillis;
        server = new WireMockServer(options().dynamicPort().extensions(new Behaviour()));
        server.start();
        server.stubFor(post(urlPathEqualTo("/v1/payment_intents"))
                .willReturn(aResponse().withTransformers(Behaviour.NAME)));
        server.stubFor(get(urlPathEqualTo("/v1/payment_intents/search"))
                .atPriority(1)
                .willReturn(aResponse().withTransformers(Behaviour.NAME)));
        server.stubFor(get(urlPathMatching("/v1/payment_intents/pi_[A-Za-z0-9]+"))
                .atPriority(2)
                .willReturn(aResponse().withTransformers(Behaviour.NAME)));
        server.stubFor(post(urlPathMatching("/v1/payment_intents/pi_[A-Za-z0-9]+/(capture|cancel)")).atPriority(1)
                .willReturn(aResponse().withTransformers(Behaviour.NAME)));
        server.stubFor(post(urlPathEqualTo("/v1/refunds")).atPriority(1)
                .willReturn(aResponse().withTransformers(Behaviour.NAME)));
        server.stubFor(get(urlPathEqualTo("/v1/refunds")).atPriority(1)
                .willReturn(aResponse().withTransformers(Behaviour.NAME)));
        server.stubFor(get(urlPathMatching("/3ds/pi_[A-Za-z0-9]+")).atPriority(1)
                .willReturn(aResponse().withTransformers(Behaviour.NAME)));
        server.stubFor(post(urlPathMatching("/3ds/pi_[A-Za-z0-9]+")).atPriority(1)
                .willReturn(aResponse().withTransformers(Behaviour.NAME)));
    }

    /** Refunds Stripe made, by their `re_…` id (a refund of a `pm_card_refundFails…` intent is `failed`). */
    private final Map<String, Map<String, Object>> refunds = new LinkedHashMap<>();

    /** The Refund objects made for this PaymentIntent, oldest first. */
    public synchronized List<Map<String, Object>> refundsOf(String intentId) {
        return refunds.values().stream().filter(r -> intentId.equals(r.get("payment_intent")))
                .map(r -> (Map<String, Object>) new LinkedHashMap<>(r)).toList();
    }

    public String baseUrl() {
        return "http://localhost:" + server.port();
    }

    /** The fake's clock moves on (search indexing, key expiry): the system clock plus every advance so far. */
    public synchronized FakeStripe advanceClock(Duration by) {
        clockOffset = clockOffset.plus(by);
        return this;
    }

    /** How long after its creation a PaymentIntent is found by search (zero: at once, the default). */
    public synchronized FakeStripe searchIndexDelay(Duration delay) {
        searchIndexDelay = delay;
        return this;
    }

    /** While on, every search answers 500 `api_error` (Stripe's search during an incident). */
    public synchronized FakeStripe failSearches(boolean fail) {
        searchFails = fail;
        return this;
    }

    /** Idempotency keys are forgotten this long after their first use (null: never, the default). */
    public synchronized FakeStripe forgetKeysAfter(Duration lifetime) {
        keyLifetime = lifetime;
        return this;
    }

    /** Searches received (`GET /v1/payment_intents/search`), failed ones included. */
    public synchronized int searches() {
        return searches;
    }

    /** Retrieves by id received (`GET /v1/payment_intents/{id}`). */
    public synchronized int retrieves() {
        return retrieves;
    }

    /**
     * Stripe reports a refund failed after it succeeded (the bank returned it): the Refund becomes `failed` with
     * {@code failureReason} (Stripe's `failure_reason`, e.g. `lost_or_stolen_card`, `expired_or_canceled_card`,
     * `declined`); the Refund object is answered for {@link #event} (`refund.failed` or `refund.updated`).
     */
    public synchronized Map<String, Object> failRefund(String refundId, String failureReason) {
        Map<String, Object> refund = refunds.get(refundId);
        refund.put("status", "failed");
        refund.put("failure_reason", failureReason);
        refund.put("failure_balance_transaction", "txn_" + random(24));
        return new LinkedHashMap<>(refund);
    }

    private Instant now() {
        return Instant.now().plus(clockOffset);
    }

    /** The saved result of this key, unless Stripe has pruned it by now. */
    private Saved live(String savedKey) {
        Saved saved = idempotent.get(savedKey);
        if (saved != null && keyLifetime != null && !now().isBefore(saved.at().plus(keyLifetime))) {
            idempotent.remove(savedKey);
            return null;
        }
        return saved;
    }

    /** Every answer comes this late (a slow Stripe): keeps requests in flight for tests of shutdown or load. */
    public FakeStripe delayEveryAnswer(int millis) {
        server.setGlobalFixedDelay(millis);
        return this;
    }

    public FakeStripe acceptKey(String secretKey) {
        validKeys.add(secretKey);
        return this;
    }

    /** Queues a fault for the next create request with this payment method (tests use their own tokens). */
    public synchronized void failNext(String paymentMethod, Failure failure) {
        failures.computeIfAbsent(paymentMethod, k -> new ArrayDeque<>()).addLast(failure);
    }

    /** Faults queued for this payment method and not served yet. */
    public synchronized int pendingFailures(String paymentMethod) {
        Deque<Failure> queued = failures.get(paymentMethod);
        return queued == null ? 0 : queued.size();
    }

    /** The create parameters Stripe received under this idempotency key (form fields), if any. */
    public synchronized Map<String, String> createdWith(String idempotencyKey) {
        Saved saved = idempotent.get(idempotencyKey);
        return saved == null ? Map.of() : form(saved.requestBody());
    }

    /** The capture parameters Stripe executed under this idempotency key (form fields), if any. */
    public synchronized Map<String, String> capturedWith(String idempotencyKey) {
        Saved saved = idempotent.get("capture:" + idempotencyKey);
        return saved == null ? Map.of() : form(saved.requestBody());
    }

    /** The cancel parameters Stripe executed under this idempotency key (form fields), if any. */
    public synchronized Map<String, String> canceledWith(String idempotencyKey) {
        Saved saved = idempotent.get("cancel:" + idempotencyKey);
        return saved == null ? Map.of() : form(saved.requestBody());
    }

    /** PaymentIntents that took money or are processing, in creation order (declined ones are not charged). */
    public synchronized List<String> chargedIntents() {
        return List.copyOf(charged);
    }

    /** Every PaymentIntent created (any outcome), oldest first, as Stripe would show it. */
    public synchronized List<Map<String, Object>> intents() {
        return intents.values().stream().map(i -> (Map<String, Object>) new LinkedHashMap<>(i)).toList();
    }

    /** The `Idempotency-Key` the PaymentIntent was created under, or null. */
    public synchronized String idempotencyKeyOf(String intentId) {
        return intentKeys.get(intentId);
    }

    /** The PaymentIntent {@code pi_…} as Stripe would show it. */
    public synchronized Map<String, Object> intent(String intentId) {
        return new LinkedHashMap<>(intents.get(intentId));
    }

    /**
     * Queues a fault for the next capture of the PaymentIntent: {@link Failure#ERROR_500_AFTER_CHARGE} captures, then
     * answers 500 and saves that 500 under the capture's key (replayed from then on, as for creates);
     * {@link Failure#ERROR_500_BEFORE_CHARGE} captures nothing; {@link Failure#TIMEOUT_AFTER_CHARGE} captures, then
     * answers too late.
     */
    public synchronized void failNextCapture(String intentId, Failure failure) {
        captureFailures.computeIfAbsent(intentId, k -> new ArrayDeque<>()).addLast(failure);
    }

    /** Captures Stripe executed for the payment's PaymentIntents (replays under the same key are not counted). */
    public synchronized long capturesFor(String paymentId) {
        return intentIdsOf(paymentId).stream().mapToLong(id -> captures.getOrDefault(id, List.of()).size()).sum();
    }

    /** The amount captured of the payment's PaymentIntents, in Stripe's units. */
    public synchronized long capturedFor(String paymentId) {
        return intentIdsOf(paymentId).stream()
                .flatMap(id -> captures.getOrDefault(id, List.of()).stream())
                .mapToLong(Long::longValue).sum();
    }

    /** Cancels Stripe executed for the payment's PaymentIntents (replays under the same key are not counted). */
    public synchronized long cancelsFor(String paymentId) {
        return intentIdsOf(paymentId).stream().mapToLong(id -> cancels.getOrDefault(id, 0)).sum();
    }

    /** The events Stripe sent about this PaymentIntent (holds, 3-D Secure), oldest first. */
    public synchronized List<SentEvent> eventsOf(String intentId) {
        return sentEvents.stream().filter(e -> intentId.equals(e.object().get("id"))).toList();
    }

    /**
     * Stripe releases an authorisation not captured in time ("uncaptured PaymentIntents are cancelled a set number
     * of days (7 by default) after their creation", https://docs.stripe.com/api/payment_intents/capture): the
     * PaymentIntent becomes `canceled` with `cancellation_reason` `automatic`, and `payment_intent.canceled` is sent.
     */
    public synchronized Map<String, Object> expireAuthorization(String intentId) {
        Map<String, Object> intent = intents.get(intentId);
        if (!"requires_capture".equals(intent.get("status"))) {
            throw new IllegalStateException(intentId + " is " + intent.get("status") + ", not requires_capture");
        }
        release(intent, "automatic");
        return new LinkedHashMap<>(intent);
    }

    private List<String> intentIdsOf(String paymentId) {
        return intents.values().stream().filter(i -> paymentId.equals(metadata(i).get("payment_id")))
                .map(i -> String.valueOf(i.get("id"))).toList();
    }

    /** The hold is released: nothing capturable, nothing taken, `payment_intent.canceled` sent. */
    private void release(Map<String, Object> intent, String reason) {
        intent.put("status", "canceled");
        intent.put("amount_capturable", 0);
        intent.put("canceled_at", now().getEpochSecond());
        intent.put("cancellation_reason", reason);
        charged.remove(String.valueOf(intent.get("id")));
        send("payment_intent.canceled", intent);
    }

    private void send(String type, Map<String, Object> object) {
        String id = "evt_" + random(24);
        object = new LinkedHashMap<>(object);
        sentEvents.add(new SentEvent(id, type, object, event(id, type, object, API_VERSION)));
    }

    /** Disputes opened against the fake's charges, by their `dp_…` id. */
    private final Map<String, Map<String, Object>> disputes = new LinkedHashMap<>();

    /**
     * The cardholder disputes {@code amount} (Stripe's units) of the PaymentIntent's charge: a Dispute (`dp_…`,
     * shaped as `fixtures3.json`'s `resources.dispute`) in `needs_response` with its evidence due in 7 days, and the
     * events Stripe sends for a chargeback, `charge.dispute.created` then `charge.dispute.funds_withdrawn`.
     */
    public synchronized Map<String, Object> dispute(String intentId, long amount, String reason) {
        return dispute(intentId, amount, reason, true);
    }

    /**
     * As {@link #dispute(String, long, String)}; without {@code fundsWithdrawn} it is an inquiry (Stripe's
     * `warning_needs_response`: no money taken yet, only `charge.dispute.created` is sent).
     */
    public synchronized Map<String, Object> dispute(String intentId, long amount, String reason,
                                                    boolean fundsWithdrawn) {
        Map<String, Object> intent = intents.get(intentId);
        if (intent == null || !"succeeded".equals(intent.get("status"))) {
            throw new IllegalStateException(intentId + " has no successful charge to dispute");
        }
        Map<String, Object> dispute = new LinkedHashMap<>();
        String id = "dp_" + random(24);
        dispute.put("amount", amount);
        dispute.put("balance_transactions", List.of());
        dispute.put("charge", intent.get("latest_charge"));
        dispute.put("created", now().getEpochSecond());
        dispute.put("currency", intent.get("currency"));
        Map<String, Object> evidence = new LinkedHashMap<>();
        for (String field : List.of("access_activity_log", "billing_address", "cancellation_policy",
                "cancellation_policy_disclosure", "cancellation_rebuttal", "customer_communication",
                "customer_email_address", "customer_name", "customer_purchase_ip", "customer_signature",
                "duplicate_charge_documentation", "duplicate_charge_explanation", "duplicate_charge_id",
                "product_description", "receipt", "refund_policy", "refund_policy_disclosure",
                "refund_refusal_explanation", "service_date", "service_documentation", "shipping_address",
                "shipping_carrier", "shipping_date", "shipping_documentation", "shipping_tracking_number",
                "uncategorized_file", "uncategorized_text")) {
            evidence.put(field, null);
        }
        evidence.put("enhanced_evidence", Map.of());
        dispute.put("evidence", evidence);
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("due_by", now().plus(Duration.ofDays(7)).getEpochSecond());
        details.put("has_evidence", false);
        details.put("past_due", false);
        details.put("submission_count", 0);
        details.put("enhanced_eligibility", Map.of());
        dispute.put("evidence_details", details);
        dispute.put("id", id);
        dispute.put("is_charge_refundable", false);
        dispute.put("livemode", false);
        dispute.put("metadata", Map.of());
        dispute.put("object", "dispute");
        dispute.put("payment_intent", intentId);
        Map<String, Object> card = new LinkedHashMap<>();
        card.put("brand", "visa");
        card.put("case_type", fundsWithdrawn ? "chargeback" : "inquiry");
        card.put("network_reason_code", "10.4");
        card.put("network", "visa");
        dispute.put("payment_method_details", Map.of("card", card, "type", "card"));
        dispute.put("reason", reason);
        dispute.put("status", fundsWithdrawn ? "needs_response" : "warning_needs_response");
        dispute.put("enhanced_eligibility_types", List.of());
        disputes.put(id, dispute);
        send("charge.dispute.created", dispute);
        if (fundsWithdrawn) {
            send("charge.dispute.funds_withdrawn", dispute);
        }
        return new LinkedHashMap<>(dispute);
    }

    /**
     * Stripe closes the dispute with {@code status} (`won`, `lost`, `warning_closed`) and sends
     * `charge.dispute.closed`; a chargeback won also sends `charge.dispute.funds_reinstated`. A closed dispute can be
     * closed again the other way (a decision reversed at arbitration).
     */
    public synchronized Map<String, Object> closeDispute(String disputeId, String status) {
        Map<String, Object> dispute = disputes.get(disputeId);
        if (dispute == null || !Set.of("won", "lost", "warning_closed").contains(status)) {
            throw new IllegalArgumentException("no dispute " + disputeId + " to close " + status);
        }
        dispute.put("status", status);
        send("charge.dispute.closed", dispute);
        if (status.equals("won") && "chargeback".equals(((Map<?, ?>) ((Map<?, ?>) dispute
                .get("payment_method_details")).get("card")).get("case_type"))) {
            send("charge.dispute.funds_reinstated", dispute);
        }
        return new LinkedHashMap<>(dispute);
    }

    /** The events Stripe sent about this dispute ({@code dp_…}), oldest first. */
    public synchronized List<SentEvent> disputeEventsOf(String disputeId) {
        return sentEvents.stream().filter(e -> disputeId.equals(e.object().get("id"))).toList();
    }

    /** How many PaymentIntents were created for this payment (any outcome). */
    public synchronized long intentsFor(String paymentId) {
        return intents.values().stream().filter(i -> paymentId.equals(metadata(i).get("payment_id"))).count();
    }

    public synchronized long chargesFor(String paymentId) {
        return charged.stream().filter(id -> paymentId.equals(metadata(intents.get(id)).get("payment_id"))).count();
    }

    /** The PaymentIntent made for the payment's attempt, as Stripe would show it. */
    public synchronized Map<String, Object> intentOf(String paymentId, int attempt) {
        return intents.values().stream()
                .filter(i -> paymentId.equals(metadata(i).get("payment_id"))
                        && Integer.toString(attempt).equals(metadata(i).get("attempt")))
                .findFirst().map(LinkedHashMap::new).orElseThrow();
    }

    /**
     * The customer passes 3-D Secure on the PaymentIntent's redirect page: it ends `succeeded` (the money taken,
     * `payment_intent.succeeded` sent) or, for a manual one, `requires_capture` (held,
     * `payment_intent.amount_capturable_updated` sent), as Stripe confirms it after the challenge.
     */
    public synchronized Map<String, Object> approve(String intentId) {
        Map<String, Object> intent = awaitingRedirect(intentId);
        intent.put("next_action", null);
        intent.put("latest_charge", "ch_" + random(24));
        charged.add(intentId);
        if ("manual".equals(intent.get("capture_method"))) {
            intent.put("status", "requires_capture");
            intent.put("amount_capturable", intent.get("amount"));
            send("payment_intent.amount_capturable_updated", intent);
        } else {
            intent.put("status", "succeeded");
            intent.put("amount_received", intent.get("amount"));
            send("payment_intent.succeeded", intent);
        }
        return new LinkedHashMap<>(intent);
    }

    /**
     * The customer fails 3-D Secure: the PaymentIntent goes back to `requires_payment_method` with Stripe's
     * `payment_intent_authentication_failure` as its `last_payment_error`, and `payment_intent.payment_failed` is sent.
     */
    public synchronized Map<String, Object> fail(String intentId) {
        Map<String, Object> intent = awaitingRedirect(intentId);
        intent.put("status", "requires_payment_method");
        intent.put("next_action", null);
        Map<String, Object> lastError = new LinkedHashMap<>();
        lastError.put("code", "payment_intent_authentication_failure");
        lastError.put("doc_url", "https://stripe.com/docs/error-codes/payment-intent-authentication-failure");
        lastError.put("message", "The provided PaymentMethod has failed authentication. You can provide"
                + " payment_method_data or a new PaymentMethod to attempt to fulfill this PaymentIntent again.");
        lastError.put("payment_method", Map.of("id", intent.get("payment_method"), "object", "payment_method",
                "type", "card", "livemode", false));
        lastError.put("type", "invalid_request_error");
        intent.put("last_payment_error", lastError);
        send("payment_intent.payment_failed", intent);
        return new LinkedHashMap<>(intent);
    }

    /** The redirect page of a PaymentIntent waiting for 3-D Secure, else an {@link IllegalStateException}. */
    private Map<String, Object> awaitingRedirect(String intentId) {
        Map<String, Object> intent = intents.get(intentId);
        if (intent == null || !"requires_action".equals(intent.get("status"))
                || !(intent.get("next_action") instanceof Map<?, ?> next) || !"redirect_to_url".equals(next.get("type"))) {
            throw new IllegalStateException(intentId + " is not waiting for 3-D Secure on a redirect page");
        }
        return intent;
    }

    /** Where the customer's browser is sent back to once the 3-D Secure page is done, as Stripe does it. */
    private static String returnUrlOf(Map<String, Object> intent) {
        Map<?, ?> redirect = (Map<?, ?>) ((Map<?, ?>) intent.get("next_action")).get("redirect_to_url");
        String returnUrl = String.valueOf(redirect.get("return_url"));
        int hash = returnUrl.indexOf('#');
        String base = hash < 0 ? returnUrl : returnUrl.substring(0, hash);
        return base + (base.contains("?") ? "&" : "?") + "payment_intent=" + intent.get("id")
                + "&payment_intent_client_secret=" + intent.get("client_secret") + (hash < 0 ? ""
                : returnUrl.substring(hash));
    }

    /** Stripe settles a `processing` PaymentIntent. */
    public synchronized Map<String, Object> settle(String intentId, String status) {
        Map<String, Object> intent = intents.get(intentId);
        intent.put("status", status);
        if (status.equals("succeeded")) {
            intent.put("amount_received", intent.get("amount"));
            if (intent.get("latest_charge") == null) {
                intent.put("latest_charge", "ch_" + random(24));
            }
        }
        if (status.equals("requires_payment_method")) {
            intent.put("last_payment_error", Map.of("type", "card_error", "code", "card_declined",
                    "decline_code", "insufficient_funds", "message", "Your card has insufficient funds."));
            charged.remove(intentId);
        }
        return new LinkedHashMap<>(intent);
    }

    /** A Stripe event (`evt_…`) about the PaymentIntent, with the given API version. */
    public static String event(String eventId, String type, Map<String, Object> intent, String apiVersion) {
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("id", eventId);
        event.put("object", "event");
        event.put("api_version", apiVersion);
        event.put("created", Instant.now().getEpochSecond());
        event.put("data", Map.of("object", intent));
        event.put("livemode", false);
        event.put("pending_webhooks", 1);
        event.put("request", Map.of("id", "req_" + random(14), "idempotency_key", UUID.randomUUID().toString()));
        event.put("type", type);
        return JSON.writeValueAsString(event);
    }

    /** The `Stripe-Signature` header for {@code payload}, made by stripe-java's own helper. */
    public static String sign(String payload, String secret, long timestamp) {
        try {
            return Webhook.Signature.generateSignatureHeader(payload, secret, timestamp);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        server.stop();
    }

    private static Map<?, ?> metadata(Map<String, Object> intent) {
        return (Map<?, ?>) intent.getOrDefault("metadata", Map.of());
    }

    private static String random(int length) {
        return UUID.randomUUID().toString().replace("-", "").substring(0, length);
    }

    private static Map<String, String> form(String body) {
        Map<String, String> params = new LinkedHashMap<>();
        if (body == null || body.isEmpty()) {
            return params;
        }
        for (String pair : body.split("&")) {
            int eq = pair.indexOf('=');
            String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            params.put(key, value);
        }
        return params;
    }

    private static ResponseDefinition json(int status, Object body) {
        return stripeHeaders(aResponse().withStatus(status), "req_" + random(14))
                .withBody(JSON.writeValueAsString(body)).build();
    }

    /** The headers every Stripe answer carries (`Request-Id`, `Stripe-Version`), JSON. */
    private static ResponseDefinitionBuilder stripeHeaders(ResponseDefinitionBuilder response, String requestId) {
        return response.withHeader("Content-Type", "application/json").withHeader("Request-Id", requestId)
                .withHeader("Stripe-Version", API_VERSION);
    }

    /**
     * An error body as spec3's `error` schema: `{"error": api_errors}`, where `api_errors` has `type` (`api_error`,
     * `card_error`, `idempotency_error`, `invalid_request_error`), nullable `code`, `decline_code`, `message`,
     * `param`, and a `doc_url` when there is a code.
     */
    private static Map<String, Object> error(String type, String code, String message) {
        return error(type, code, null, message);
    }

    private static Map<String, Object> error(String type, String code, String param, String message) {
        Map<String, Object> error = new LinkedHashMap<>();
        if (code != null) {
            error.put("code", code);
            error.put("doc_url", "https://stripe.com/docs/error-codes/" + code.replace('_', '-'));
        }
        error.put("message", message);
        if (param != null) {
            error.put("param", param);
        }
        error.put("request_log_url", "https://dashboard.stripe.com/test/logs/req_" + random(14));
        error.put("type", type);
        return Map.of("error", error);
    }

    private final class Behaviour implements ResponseDefinitionTransformerV2 {

        static final String NAME = "fake-stripe";

        @Override
        public String getName() {
            return NAME;
        }

        @Override
        public boolean applyGlobally() {
            return false;
        }

        @Override
        public ResponseDefinition transform(ServeEvent serveEvent) {
            Request request = serveEvent.getRequest();
            if (request.getUrl().startsWith("/3ds/")) {
                synchronized (FakeStripe.this) {
                    return threeDSecure(request);
                }
            }
            String auth = request.getHeader("Authorization");
            String key = auth != null && auth.startsWith("Bearer ") ? auth.substring(7) : "";
            if (!validKeys.contains(key)) {
                return json(401, error("invalid_request_error", null,
                        "Invalid API Key provided: " + mask(key)));
            }
            synchronized (FakeStripe.this) {
                String path = request.getUrl().split("\\?")[0];
                if (path.equals("/v1/refunds")) {
                    return RequestMethod.POST.equals(request.getMethod()) ? refund(request) : listRefunds(request);
                }
                Matcher hold = HOLD_PATH.matcher(path);
                if (RequestMethod.POST.equals(request.getMethod()) && hold.matches()) {
                    return hold.group(2).equals("capture") ? capture(request, hold.group(1))
                            : cancel(request, hold.group(1));
                }
                if (RequestMethod.POST.equals(request.getMethod())) {
                    return create(request);
                }
                if (path.equals("/v1/payment_intents/search")) {
                    return search(request.getUrl());
                }
                Matcher matcher = INTENT_PATH.matcher(path);
                retrieves++;
                if (matcher.matches() && intents.containsKey(matcher.group(1))) {
                    return json(200, intents.get(matcher.group(1)));
                }
                return json(404, error("invalid_request_error", "resource_missing", "intent",
                        "No such payment_intent: '" + path.substring(path.lastIndexOf('/') + 1) + "'"));
            }
        }

        /**
         * The fake's 3-D Secure page of a PaymentIntent (the customer's browser, no API key): `GET` shows a form,
         * `POST` with `decision=approve|fail` settles it ({@link #approve}, {@link #fail}) and answers 303 to the
         * `return_url` with `payment_intent=<id>`; a PaymentIntent not waiting there is 409, an unknown one 404.
         */
        private ResponseDefinition threeDSecure(Request request) {
            String intentId = request.getUrl().split("\\?")[0].substring("/3ds/".length());
            Map<String, Object> intent = intents.get(intentId);
            if (intent == null) {
                return html(404, "<p>No such PaymentIntent.</p>");
            }
            boolean waiting = "requires_action".equals(intent.get("status"))
                    && intent.get("next_action") instanceof Map<?, ?> next && "redirect_to_url".equals(next.get("type"));
            if (!waiting) {
                return html(409, "<p>This PaymentIntent is " + intent.get("status") + ".</p>");
            }
            if (RequestMethod.GET.equals(request.getMethod())) {
                return html(200, "<h1>3D Secure 2 Test Page</h1><p id=\"amount\">" + intent.get("amount") + " "
                        + intent.get("currency") + "</p><form method=\"post\"><button id=\"approve\" name=\"decision\""
                        + " value=\"approve\">Complete authentication</button><button id=\"fail\""
                        + " name=\"decision\" value=\"fail\">Fail authentication</button></form>");
            }
            String decision = form(request.getBodyAsString()).get("decision");
            if (!"approve".equals(decision) && !"fail".equals(decision)) {
                return html(400, "<p>decision must be approve or fail.</p>");
            }
            String back = returnUrlOf(intent);
            if (decision.equals("approve")) {
                approve(intentId);
            } else {
                fail(intentId);
            }
            return aResponse().withStatus(303).withHeader("Location", back).build();
        }

        private ResponseDefinition html(int status, String body) {
            return aResponse().withStatus(status).withHeader("Content-Type", "text/html; charset=utf-8")
                    .withBody("<!doctype html><html><body>" + body + "</body></html>").build();
        }

        private String mask(String key) {
            return key.length() <= 4 ? "****" : key.substring(0, Math.min(8, key.length())) + "*********"
                    + key.substring(key.length() - 4);
        }

        private ResponseDefinition create(Request request) {
            String body = request.getBodyAsString();
            String idempotencyKey = request.getHeader("Idempotency-Key");
            Map<String, String> params = form(body);
            String method = params.getOrDefault("payment_method", "");
            Deque<Failure> queued = failures.get(method);
            Failure failure = queued == null ? null : queued.pollFirst();
            if (failure == Failure.ERROR_500_BEFORE_CHARGE) {
                return json(500, error("api_error", null, "An unknown error occurred"));
            }
            if (failure == Failure.UNAUTHORIZED) {
                return json(401, error("invalid_request_error", null, "Invalid API Key provided: ****"));
            }
            ResponseDefinition invalid = invalidAmount(params.get("amount"), params.getOrDefault("currency", ""));
            if (invalid != null) {
                return invalid;
            }
            Saved saved = idempotencyKey != null ? live(idempotencyKey) : null;
            if (saved != null) {
                ResponseDefinition replay = replay(saved, idempotencyKey, body);
                return replay.getStatus() == 400 ? replay : answer(replay, failure);
            }
            String id = "pi_" + random(24);
            Map<String, Object> intent = new LinkedHashMap<>();
            intent.put("id", id);
            intent.put("object", "payment_intent");
            intent.put("amount", Long.parseLong(params.get("amount")));
            intent.put("amount_received", 0);
            boolean manual = "manual".equals(params.get("capture_method"));
            intent.put("capture_method", manual ? "manual" : "automatic_async");
            intent.put("client_secret", id + "_secret_" + random(20));
            intent.put("confirmation_method", "automatic");
            intent.put("created", now().getEpochSecond());
            intent.put("currency", params.get("currency"));
            intent.put("last_payment_error", null);
            intent.put("latest_charge", null);
            intent.put("livemode", false);
            Map<String, String> metadata = new LinkedHashMap<>();
            params.forEach((k, v) -> {
                if (k.startsWith("metadata[")) {
                    metadata.put(k.substring("metadata[".length(), k.length() - 1), v);
                }
            });
            intent.put("metadata", metadata);
            intent.put("payment_method", params.get("payment_method"));
            intent.put("payment_method_types", List.of("card"));
            // Fields of fixtures3.json's `payment_intent` that the service does not send are there, null or empty.
            intent.put("amount_capturable", 0);
            intent.put("amount_details", Map.of("tip", Map.of()));
            intent.put("application", null);
            intent.put("application_fee_amount", null);
            intent.put("automatic_payment_methods", null);
            intent.put("canceled_at", null);
            intent.put("cancellation_reason", null);
            intent.put("customer", null);
            intent.put("description", null);
            intent.put("next_action", null);
            intent.put("on_behalf_of", null);
            intent.put("payment_method_configuration_details", null);
            intent.put("payment_method_options", Map.of());
            intent.put("processing", null);
            intent.put("receipt_email", null);
            intent.put("review", null);
            intent.put("setup_future_usage", null);
            intent.put("shipping", null);
            intent.put("statement_descriptor", null);
            intent.put("statement_descriptor_suffix", null);
            intent.put("transfer_data", null);
            intent.put("transfer_group", null);
            int status = 200;
            Object answer = intent;
            switch (behaviour(method)) {
                case "pm_card_chargeDeclined" -> {
                    // Stripe's 402 card error: the `api_errors` object with the failed charge, the decline code,
                    // the PaymentIntent (now `requires_payment_method`, the error as its last_payment_error) and
                    // the PaymentMethod object.
                    String chargeId = "ch_" + random(24);
                    intent.put("status", "requires_payment_method");
                    intent.put("latest_charge", chargeId);
                    Map<String, Object> lastError = new LinkedHashMap<>();
                    lastError.put("charge", chargeId);
                    lastError.put("code", "card_declined");
                    lastError.put("decline_code", "generic_decline");
                    lastError.put("doc_url", "https://stripe.com/docs/error-codes/card-declined");
                    lastError.put("message", "Your card was declined.");
                    lastError.put("payment_method", Map.of("id", params.get("payment_method"),
                            "object", "payment_method", "type", "card", "livemode", false));
                    lastError.put("type", "card_error");
                    intent.put("last_payment_error", lastError);
                    Map<String, Object> error = new LinkedHashMap<>(lastError);
                    error.put("payment_intent", intent);
                    error.put("request_log_url", "https://dashboard.stripe.com/test/logs/req_" + random(14));
                    status = 402;
                    answer = Map.of("error", error);
                }
                case "pm_card_authenticationRequired" -> {
                    intent.put("status", "requires_action");
                    String returnUrl = params.get("return_url");
                    if (returnUrl != null) {
                        Map<String, Object> redirect = new LinkedHashMap<>();
                        redirect.put("return_url", returnUrl);
                        redirect.put("url", baseUrl() + "/3ds/" + id);
                        Map<String, Object> next = new LinkedHashMap<>();
                        next.put("redirect_to_url", redirect);
                        next.put("type", "redirect_to_url");
                        intent.put("next_action", next);
                    } else {
                        intent.put("next_action", Map.of("type", "use_stripe_sdk", "use_stripe_sdk", Map.of()));
                    }
                    send("payment_intent.requires_action", intent);
                }
                case "pm_card_processing" -> {
                    intent.put("status", "processing");
                    charged.add(id);
                }
                default -> {
                    if (manual) {
                        // Authorised, not captured: the charge holds the amount (`amount_capturable`).
                        intent.put("status", "requires_capture");
                        intent.put("amount_capturable", intent.get("amount"));
                        intent.put("latest_charge", "ch_" + random(24));
                        charged.add(id);
                        send("payment_intent.amount_capturable_updated", intent);
                        break;
                    }
                    intent.put("status", "succeeded");
                    intent.put("amount_received", intent.get("amount"));
                    intent.put("latest_charge", "ch_" + random(24));
                    charged.add(id);
                }
            }
            intents.put(id, intent);
            createdAt.put(id, now());
            if (idempotencyKey != null) {
                intentKeys.put(id, idempotencyKey);
            }
            String responseBody = JSON.writeValueAsString(answer);
            String requestId = "req_" + random(14);
            if (failure == Failure.ERROR_500_AFTER_CHARGE) {
                // Executed, then a 500: that 500 is what the key saves (and replays from now on).
                status = 500;
                responseBody = JSON.writeValueAsString(error("api_error", null,
                        "An unknown error occurred while processing your request."));
            }
            if (idempotencyKey != null) {
                idempotent.put(idempotencyKey, new Saved(body, status, responseBody, requestId, now()));
            }
            ResponseDefinitionBuilder executed = stripeHeaders(aResponse().withStatus(status), requestId)
                    .withBody(responseBody);
            if (idempotencyKey != null) {
                executed = executed.withHeader("Idempotency-Key", idempotencyKey);
            }
            return answer(executed.build(), failure);
        }

        /**
         * `POST /v1/payment_intents/{id}/capture` (https://docs.stripe.com/api/payment_intents/capture): only a
         * `requires_capture` PaymentIntent, else 400 `payment_intent_unexpected_state` carrying it; `amount_to_capture`
         * (default: all of `amount_capturable`) at most `amount_capturable`, else 400 `amount_too_large`; less is a
         * partial capture and the rest is released. One capture per PaymentIntent (no multicapture): it ends
         * `succeeded` with `amount_received` = the captured amount and nothing capturable, and
         * `payment_intent.succeeded` is sent. Idempotent on the key as creates are.
         */
        private ResponseDefinition capture(Request request, String intentId) {
            String body = request.getBodyAsString();
            String idempotencyKey = request.getHeader("Idempotency-Key");
            Deque<Failure> queued = captureFailures.get(intentId);
            Failure failure = queued == null ? null : queued.pollFirst();
            if (failure == Failure.ERROR_500_BEFORE_CHARGE) {
                return json(500, error("api_error", null, "An unknown error occurred"));
            }
            Saved saved = idempotencyKey != null ? live("capture:" + idempotencyKey) : null;
            if (saved != null) {
                return replay(saved, idempotencyKey, body);
            }
            Map<String, Object> intent = intents.get(intentId);
            if (intent == null) {
                return missing(intentId);
            }
            if (!"requires_capture".equals(intent.get("status"))) {
                return unexpectedState(intent, "This PaymentIntent could not be captured because it has a status of "
                        + intent.get("status") + ". Only a PaymentIntent with one of the following statuses may be"
                        + " captured: requires_capture.");
            }
            long capturable = ((Number) intent.get("amount_capturable")).longValue();
            Map<String, String> params = form(body);
            long amount;
            try {
                amount = params.containsKey("amount_to_capture") ? Long.parseLong(params.get("amount_to_capture"))
                        : capturable;
            } catch (NumberFormatException e) {
                return json(400, error("invalid_request_error", "parameter_invalid_integer", "amount_to_capture",
                        "Invalid integer: " + params.get("amount_to_capture")));
            }
            if (amount < 1) {
                return json(400, error("invalid_request_error", "amount_too_small", "amount_to_capture",
                        "Amount must be at least 1 " + intent.get("currency")));
            }
            if (amount > capturable) {
                return json(400, error("invalid_request_error", "amount_too_large", "amount_to_capture",
                        "The amount to capture (" + amount + ") is greater than the amount capturable ("
                                + capturable + ")."));
            }
            intent.put("status", "succeeded");
            intent.put("amount_received", amount);
            intent.put("amount_capturable", 0);
            captures.computeIfAbsent(intentId, k -> new ArrayList<>()).add(amount);
            send("payment_intent.succeeded", intent);
            return executed("capture:", idempotencyKey, body, intent, failure);
        }

        /**
         * `POST /v1/payment_intents/{id}/cancel` (https://docs.stripe.com/api/payment_intents/cancel): a PaymentIntent
         * in {@link #CANCELABLE} becomes `canceled` (a hold's `amount_capturable` is released) and
         * `payment_intent.canceled` is sent; any other status (`canceled` included) is 400
         * `payment_intent_unexpected_state` carrying it. `cancellation_reason` must be one of
         * {@link #CANCELLATION_REASONS}. Idempotent on the key as creates are.
         */
        private ResponseDefinition cancel(Request request, String intentId) {
            String body = request.getBodyAsString();
            String idempotencyKey = request.getHeader("Idempotency-Key");
            Saved saved = idempotencyKey != null ? live("cancel:" + idempotencyKey) : null;
            if (saved != null) {
                return replay(saved, idempotencyKey, body);
            }
            Map<String, Object> intent = intents.get(intentId);
            if (intent == null) {
                return missing(intentId);
            }
            String reason = form(body).get("cancellation_reason");
            if (reason != null && !CANCELLATION_REASONS.contains(reason)) {
                return json(400, error("invalid_request_error", null, "cancellation_reason",
                        "Invalid cancellation_reason: must be one of duplicate, fraudulent, requested_by_customer,"
                                + " or abandoned"));
            }
            if (!CANCELABLE.contains(String.valueOf(intent.get("status")))) {
                return unexpectedState(intent, "You cannot cancel this PaymentIntent because it has a status of "
                        + intent.get("status") + ". Only a PaymentIntent with one of the following statuses may be"
                        + " canceled: requires_payment_method, requires_capture, requires_confirmation,"
                        + " requires_action, processing.");
            }
            release(intent, reason);
            cancels.merge(intentId, 1, Integer::sum);
            return executed("cancel:", idempotencyKey, body, intent, null);
        }

        /** An executed hold operation's answer (or the armed fault's 500, saved in its place), saved under the key. */
        private ResponseDefinition executed(String namespace, String idempotencyKey, String body,
                                            Map<String, Object> intent, Failure failure) {
            int status = 200;
            String responseBody = JSON.writeValueAsString(intent);
            if (failure == Failure.ERROR_500_AFTER_CHARGE) {
                status = 500;
                responseBody = JSON.writeValueAsString(error("api_error", null,
                        "An unknown error occurred while processing your request."));
            }
            String requestId = "req_" + random(14);
            if (idempotencyKey != null) {
                idempotent.put(namespace + idempotencyKey, new Saved(body, status, responseBody, requestId, now()));
            }
            ResponseDefinitionBuilder answer = stripeHeaders(aResponse().withStatus(status), requestId)
                    .withBody(responseBody);
            if (idempotencyKey != null) {
                answer = answer.withHeader("Idempotency-Key", idempotencyKey);
            }
            return answer(answer.build(), failure);
        }

        /** 400 `payment_intent_unexpected_state`, with the PaymentIntent in the error, as Stripe answers it. */
        private ResponseDefinition unexpectedState(Map<String, Object> intent, String message) {
            Map<String, Object> error = new LinkedHashMap<>(
                    (Map<String, Object>) error("invalid_request_error", "payment_intent_unexpected_state", message)
                            .get("error"));
            error.put("payment_intent", intent);
            return json(400, Map.of("error", error));
        }

        private ResponseDefinition missing(String intentId) {
            return json(404, error("invalid_request_error", "resource_missing", "intent",
                    "No such payment_intent: '" + intentId + "'"));
        }

        /**
         * The key was used before: with other parameters 400 `idempotency_error` (nothing saved for it); with the same
         * ones, the saved status and body with `Idempotent-Replayed: true` and `Original-Request` (the first
         * request's id), as Stripe's API v1 does.
         */
        private ResponseDefinition replay(Saved saved, String idempotencyKey, String body) {
            if (!saved.requestBody().equals(body)) {
                return json(400, error("idempotency_error", null, "Keys for idempotent requests can only be used"
                        + " with the same parameters they were first used with. Try using a key other than '"
                        + idempotencyKey + "' if you meant to execute a different request."));
            }
            return stripeHeaders(aResponse().withStatus(saved.status()), "req_" + random(14))
                    .withHeader("Idempotency-Key", idempotencyKey)
                    .withHeader("Idempotent-Replayed", "true")
                    .withHeader("Original-Request", saved.requestId())
                    .withBody(saved.body()).build();
        }

        /**
         * `POST /v1/refunds`: idempotent on the key; the intent must have succeeded; at most its `amount_received`
         * (less after a partial capture) in all, else 400 `amount_too_large`.
         */
        private ResponseDefinition refund(Request request) {
            String body = request.getBodyAsString();
            String idempotencyKey = request.getHeader("Idempotency-Key");
            Saved saved = idempotencyKey != null ? live("refund:" + idempotencyKey) : null;
            if (saved != null) {
                return replay(saved, idempotencyKey, body);
            }
            Map<String, String> params = form(body);
            if (params.containsKey("amount")) {
                Map<String, Object> charged = intents.get(params.getOrDefault("payment_intent", ""));
                ResponseDefinition invalid = invalidAmount(params.get("amount"),
                        charged == null ? "" : String.valueOf(charged.get("currency")));
                if (invalid != null) {
                    return invalid;
                }
            }
            Map<String, Object> intent = intents.get(params.getOrDefault("payment_intent", ""));
            if (intent == null || !"succeeded".equals(intent.get("status"))) {
                return json(400, error("invalid_request_error", "charge_not_refundable",
                        "This PaymentIntent has no successful charge to refund."));
            }
            // Only what was received (a partial capture's amount) and not refunded yet can be refunded.
            long unrefunded = ((Number) intent.get("amount_received")).longValue() - refunds.values().stream()
                    .filter(r -> intent.get("id").equals(r.get("payment_intent")) && !"failed".equals(r.get("status")))
                    .mapToLong(r -> ((Number) r.get("amount")).longValue()).sum();
            long amount = params.containsKey("amount") ? Long.parseLong(params.get("amount")) : unrefunded;
            if (amount > unrefunded) {
                return json(400, error("invalid_request_error", "amount_too_large", "amount", "Refund amount ("
                        + amount + ") is greater than unrefunded amount on charge (" + unrefunded + ")"));
            }
            Map<String, Object> refund = new LinkedHashMap<>();
            String id = "re_" + random(24);
            refund.put("id", id);
            refund.put("object", "refund");
            refund.put("amount", amount);
            refund.put("currency", intent.get("currency"));
            refund.put("charge", intent.get("latest_charge"));
            refund.put("payment_intent", intent.get("id"));
            boolean fails = String.valueOf(intent.get("payment_method")).startsWith("pm_card_refundFails");
            boolean pending = String.valueOf(intent.get("payment_method")).startsWith("pm_card_refundPending");
            refund.put("status", fails ? "failed" : pending ? "pending" : "succeeded");
            refund.put("failure_reason", fails ? "declined" : null);
            Map<String, String> metadata = new LinkedHashMap<>();
            params.forEach((k, v) -> {
                if (k.startsWith("metadata[")) {
                    metadata.put(k.substring("metadata[".length(), k.length() - 1), v);
                }
            });
            refund.put("metadata", metadata);
            refund.put("created", now().getEpochSecond());
            // The rest of fixtures3.json's `refund`, as for a card refund.
            refund.put("balance_transaction", fails ? null : "txn_" + random(24));
            refund.put("destination_details", Map.of("card", Map.of("type", "refund"), "type", "card"));
            refund.put("reason", null);
            refund.put("receipt_number", null);
            refund.put("source_transfer_reversal", null);
            refund.put("transfer_reversal", null);
            refunds.put(id, refund);
            String responseBody = JSON.writeValueAsString(refund);
            String requestId = "req_" + random(14);
            if (idempotencyKey != null) {
                idempotent.put("refund:" + idempotencyKey, new Saved(body, 200, responseBody, requestId, now()));
            }
            return stripeHeaders(aResponse().withStatus(200), requestId).withBody(responseBody).build();
        }

        private ResponseDefinition listRefunds(Request request) {
            String url = request.getUrl();
            String query = url.contains("?") ? url.substring(url.indexOf('?') + 1) : "";
            String intentId = form(query).get("payment_intent");
            Map<String, Object> result = new LinkedHashMap<>();
            result.put("object", "list");
            result.put("data", refunds.values().stream()
                    .filter(r -> intentId == null || intentId.equals(r.get("payment_intent"))).toList());
            result.put("has_more", false);
            result.put("url", "/v1/refunds");
            return json(200, result);
        }

        /** A token's behaviour: its known prefix, so that each test can use tokens of its own (pm_card_visa_x1). */
        private static String behaviour(String method) {
            for (String known : List.of("pm_card_chargeDeclined", "pm_card_authenticationRequired",
                    "pm_card_processing")) {
                if (method.startsWith(known)) {
                    return known;
                }
            }
            return "pm_card_visa";
        }

        /** The executed request's answer, as the fault (if any) lets it through. */
        private ResponseDefinition answer(ResponseDefinition executed, Failure failure) {
            if (failure == null) {
                return executed;
            }
            return switch (failure) {
                case TIMEOUT_AFTER_CHARGE -> ResponseDefinitionBuilder.like(executed).withFixedDelay(delayMillis).build();
                case HOLD_AFTER_CHARGE -> ResponseDefinitionBuilder.like(executed).withFixedDelay(HOLD).build();
                case RESET_AFTER_CHARGE -> aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER).build();
                default -> executed;
            };
        }

        /**
         * Stripe's refusal of an amount it cannot take ({@link #AMOUNT_RULES}): 400 `invalid_request_error` with
         * `param` `amount`, before anything is executed (nothing saved under the key); null when it is fine.
         */
        private ResponseDefinition invalidAmount(String amount, String currency) {
            long value;
            try {
                value = Long.parseLong(amount == null ? "" : amount);
            } catch (NumberFormatException e) {
                return json(400, error("invalid_request_error", "parameter_invalid_integer", "amount",
                        "Invalid integer: " + amount));
            }
            if (value < 1) {
                return json(400, error("invalid_request_error", "amount_too_small", "amount",
                        "Amount must be at least 1 " + currency));
            }
            if (value > MAX_AMOUNT) {
                return json(400, error("invalid_request_error", "amount_too_large", "amount",
                        "Amount must be no more than 99,999,999"));
            }
            String lower = currency.toLowerCase(java.util.Locale.ROOT);
            if (lower.equals("isk") && value % 100 != 0) {
                return json(400, error("invalid_request_error", "invalid_charge_amount_no_decimal_compatible",
                        "amount", "Invalid amount. Currency ISK has become effectively zero-decimal and charged"
                                + " amounts must be evenly divisible by 100. See"
                                + " https://stripe.com/docs/currencies#special-cases for more information."));
            }
            if (THREE_DECIMAL.contains(lower) && value % 10 != 0) {
                return json(400, error("invalid_request_error", "invalid_charge_amount", "amount",
                        "Invalid amount. The last digit of a " + currency.toUpperCase(java.util.Locale.ROOT)
                                + " amount must be 0. See https://stripe.com/docs/currencies#three-decimal."));
            }
            return null;
        }

        private ResponseDefinition search(String url) {
            searches++;
            if (searchFails) {
                return json(500, error("api_error", null, "An unknown error occurred"));
            }
            Instant indexedBefore = now().minus(searchIndexDelay);
            String query = URLDecoder.decode(url.substring(url.indexOf('?') + 1), StandardCharsets.UTF_8);
            Matcher payment = Pattern.compile("metadata\\['payment_id'\\]:'([^']+)'").matcher(query);
            Matcher attempt = Pattern.compile("metadata\\['attempt'\\]:'([^']+)'").matcher(query);
            String paymentId = payment.find() ? payment.group(1) : null;
            String attemptNo = attempt.find() ? attempt.group(1) : null;
            List<Map<String, Object>> data = intents.values().stream()
                    .filter(i -> paymentId == null || paymentId.equals(metadata(i).get("payment_id")))
                    .filter(i -> attemptNo == null || attemptNo.equals(metadata(i).get("attempt")))
                    .filter(i -> !createdAt.get(String.valueOf(i.get("id"))).isAfter(indexedBefore))
                    .toList();
            Map<String, Object> result = new LinkedHashMap<>();
            result.put("object", "search_result");
            result.put("data", data);
            result.put("has_more", false);
            result.put("next_page", null);
            result.put("url", "/v1/payment_intents/search");
            return json(200, result);
        }
    }
}
