package com.payorch.fakes;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;

import com.adyen.model.notification.Amount;
import com.adyen.model.notification.NotificationRequestItem;
import com.adyen.util.HMACValidator;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.extension.ResponseDefinitionTransformerV2;
import com.github.tomakehurst.wiremock.http.Request;
import com.github.tomakehurst.wiremock.http.ResponseDefinition;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
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
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A faithful fake of Adyen Checkout's `POST /v71/payments` on WireMock (random port), with Adyen's behaviour on
 * `X-API-Key` (401 `security` error otherwise) and `Idempotency-Key` (the same key answers the first result, one
 * payment; a 5xx before processing saves nothing). Test cards as Adyen's: holder name `REFUSED` is refused
 * (`refusalReason` "Refused", `refusalReasonCode` "2"), and so is a stored payment method id starting
 * `pm_card_chargeDeclined` (the service sends every token as a stored payment method id, so the fake gives the
 * test tokens their meaning); a stored payment method id starting `pm_card_processing`
 * answers `Received` (the outcome comes by notification); any other card is `Authorised`. Notifications are built
 * and signed with the SDK's {@link HMACValidator}.
 *
 * <p>Holds: a payment with `additionalData.manualCapture=true` stays authorised until `POST /payments/{psp}/captures`
 * (partial allowed, the rest cancelled as Adyen does without multiple partial captures; {@link #CAPTURE_FAILS} makes
 * the card scheme reject it) or `POST /payments/{psp}/cancels`; each answers `received`, is idempotent on its key and
 * queues CAPTURE, CAPTURE_FAILED or CANCELLATION ({@link #takeNotifications}); {@link #loseNextCaptureAnswer} loses
 * a capture's answer after capturing.
 *
 * <p>3-D Secure by redirect: a stored payment method id starting {@link #THREE_DS} answers `RedirectShopper` with a
 * GET `redirect` action to the fake's page `/threeds/{pspReference}` (no API key: the shopper's browser), where the
 * shopper approves or refuses; the page redirects to the payment's `returnUrl` with a `redirectResult`, queues the
 * AUTHORISATION, and `POST /payments/details` with that `redirectResult` answers the decision (idempotent on its key).
 * {@link #NATIVE_THREE_DS} answers `IdentifyShopper` with a `threeDS2` action (Adyen's JavaScript components only).
 *
 * <p>Bodies follow Adyen's published OpenAPI (repository `Adyen/adyen-openapi`), checked by {@code
 * FakeAdyenFidelityIT} with the SDK's models: the `/payments` answer is `PaymentResponse` of
 * `json/CheckoutService-v71.json` (shaped as its example `post-payments-card-direct-200`), the refund answer
 * `PaymentRefundResponse` (example `post-payments-paymentPspReference-refunds-refund-201`), errors `ServiceError`
 * (examples `generic-401`, `generic-500`), notifications `AuthorisationNotificationRequest` /
 * `RefundNotificationRequest` of `json/Webhooks-v1.json` (examples `post-AUTHORISATION-authorisation`,
 * `post-REFUND-refund`). Every answer carries the `pspReference` header and echoes `Idempotency-Key`.
 */
public final class FakeAdyen implements AutoCloseable {

    public enum Failure {
        /** Processed (authorised), then HTTP 500: the saved idempotent result is the authorisation. */
        ERROR_500_AFTER_CHARGE,
        /** HTTP 500 before processing: nothing saved. */
        ERROR_500_BEFORE_CHARGE,
        /**
         * Processed (recorded, the idempotent result saved), then the answer is held for {@link #HOLD}: the window in
         * which a test kills the service between Adyen's authorisation and the service's commit.
         */
        HOLD_AFTER_CHARGE,
        /** Processed (recorded, the idempotent result saved), then the answer comes {@link #LATE} ms late. */
        TIMEOUT_AFTER_CHARGE,
        /** A capture processed (the idempotent `received` saved, the money captured), then HTTP 500. */
        ERROR_500_AFTER_CAPTURE
    }

    /** How late a {@link Failure#TIMEOUT_AFTER_CHARGE} answer comes (above the tests' read time-outs). */
    public static final int LATE = 10_000;

    /** How long a {@link Failure#HOLD_AFTER_CHARGE} answer is held. */
    public static final int HOLD = 120_000;

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final WireMockServer server;
    private final Set<String> validKeys = ConcurrentHashMap.newKeySet();
    private final Map<String, String> idempotent = new HashMap<>();
    private final Map<String, Deque<Failure>> failures = new HashMap<>();
    private final List<Map<String, Object>> payments = new ArrayList<>();

    public FakeAdyen() {
        server = new WireMockServer(options().dynamicPort().extensions(new Behaviour()));
        server.start();
        server.stubFor(post(urlPathEqualTo("/v71/payments")).willReturn(aResponse().withTransformers(Behaviour.NAME)));
        server.stubFor(post(com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching(
                "/v71/payments/[A-Za-z0-9]+/refunds")).willReturn(aResponse().withTransformers(Behaviour.NAME)));
        server.stubFor(post(com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching(
                "/v71/payments/[A-Za-z0-9]+/reversals")).willReturn(aResponse().withTransformers(Behaviour.NAME)));
        server.stubFor(post(urlPathEqualTo("/v71/cancels")).willReturn(aResponse().withTransformers(Behaviour.NAME)));
        server.stubFor(post(urlPathEqualTo("/v71/payments/details"))
                .willReturn(aResponse().withTransformers(Behaviour.NAME)));
        server.stubFor(com.github.tomakehurst.wiremock.client.WireMock.any(
                com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching("/threeds/[0-9]+"))
                .willReturn(aResponse().withTransformers(Behaviour.NAME)));
        server.stubFor(post(com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching(
                "/v71/payments/[A-Za-z0-9]+/captures")).willReturn(aResponse().withTransformers(Behaviour.NAME)));
        server.stubFor(post(com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching(
                "/v71/payments/[A-Za-z0-9]+/cancels")).willReturn(aResponse().withTransformers(Behaviour.NAME)));
    }

    /**
     * A stored payment method id starting with this is authorised, but every capture of it is rejected by the card
     * scheme: Adyen answers the capture `received` and sends `CAPTURE_FAILED` (the sandbox's token of the same name).
     */
    public static final String CAPTURE_FAILS = "pm_card_capture_fails";

    /** The reason of the fake's CAPTURE_FAILED, as Adyen's "CAPTURE_FAILED and REFUND_FAILED reasons" page words it. */
    public static final String CAPTURE_REJECTED = "Capture rejected by card scheme because of a technical issue.";

    private final List<Map<String, Object>> captures = new ArrayList<>();
    private final List<Map<String, Object>> releases = new ArrayList<>();
    private final Map<String, Deque<Failure>> captureFailures = new HashMap<>();

    /**
     * `POST /payments/{pspReference}/captures` Adyen received for the payment's pspReference, one per Idempotency-Key,
     * with `amount` (Adyen's units), `reference`, `pspReference` (the capture's) and `outcome` (`captured`, `failed`
     * or `refused`).
     */
    public synchronized List<Map<String, Object>> capturesOf(String paymentPspReference) {
        return captures.stream().filter(c -> paymentPspReference.equals(c.get("paymentPspReference")))
                .map(LinkedHashMap::new).map(m -> (Map<String, Object>) m).toList();
    }

    /** The captures of every payment Adyen processed with this reference (our payment id). */
    public synchronized List<Map<String, Object>> capturesFor(String paymentReference) {
        List<String> psps = pspReferencesFor(paymentReference);
        return captures.stream().filter(c -> psps.contains(c.get("paymentPspReference")))
                .map(LinkedHashMap::new).map(m -> (Map<String, Object>) m).toList();
    }

    /** What Adyen captured of the payments with this reference, in Adyen's units. */
    public synchronized long capturedFor(String paymentReference) {
        return payments.stream().filter(p -> paymentReference.equals(p.get("reference")))
                .mapToLong(p -> ((Number) p.getOrDefault("captured", 0L)).longValue()).sum();
    }

    /** `POST /payments/{pspReference}/cancels` Adyen received for the payment's pspReference, one per key. */
    public synchronized List<Map<String, Object>> releasesOf(String paymentPspReference) {
        return releases.stream().filter(r -> paymentPspReference.equals(r.get("paymentPspReference")))
                .map(LinkedHashMap::new).map(m -> (Map<String, Object>) m).toList();
    }

    /** Every cancel of the payments with this reference: by pspReference and by our reference (`/cancels`). */
    public synchronized long cancelsOfAnyKindFor(String paymentReference) {
        List<String> psps = pspReferencesFor(paymentReference);
        return releases.stream().filter(r -> psps.contains(r.get("paymentPspReference"))).count()
                + cancelsFor(paymentReference).size();
    }

    /** The state of the payment Adyen processed: `authorised`, `captured`, `cancelled`, `pending`, `refused`, ... */
    public synchronized String stateOf(String pspReference) {
        return String.valueOf(payment(pspReference).get("state"));
    }

    /** Arms the next capture of the payment: processed, then its answer lost (HTTP 500). */
    public synchronized void loseNextCaptureAnswer(String paymentPspReference) {
        captureFailures.computeIfAbsent(paymentPspReference, k -> new ArrayDeque<>())
                .addLast(Failure.ERROR_500_AFTER_CAPTURE);
    }

    private List<String> pspReferencesFor(String paymentReference) {
        return payments.stream().filter(p -> paymentReference.equals(p.get("reference")))
                .map(p -> (String) p.get("pspReference")).toList();
    }

    /**
     * Adyen's decimals where they differ from ISO 4217 (Adyen, "Currency codes and minor units",
     * https://docs.adyen.com/development-resources/currency-codes: CLP 2, ISK 2, CVE 0, IDR 0). CLP and ISK have no
     * subunit in use, so at Adyen their last two digits are always 00: a value that is not a multiple of 100 is an
     * amount in the wrong units (ISO's), refused as Adyen refuses an invalid amount (422, errorCode 137).
     */
    public static final Map<String, Integer> ADYEN_DECIMALS = Map.of("CLP", 2, "ISK", 2, "CVE", 0, "IDR", 0);

    private static final Set<String> WHOLE_UNITS_WITH_TWO_DECIMALS = Set.of("CLP", "ISK");

    private final List<Map<String, Object>> cancels = new ArrayList<>();
    private final List<Map<String, Object>> reversals = new ArrayList<>();
    private final List<Map<String, Object>> outbox = new ArrayList<>();

    /** `POST /cancels` requests Adyen received for this paymentReference (our payment id), oldest first. */
    public synchronized List<Map<String, Object>> cancelsFor(String paymentReference) {
        return cancels.stream().filter(c -> paymentReference.equals(c.get("paymentReference")))
                .map(LinkedHashMap::new).map(m -> (Map<String, Object>) m).toList();
    }

    /** `POST /payments/{pspReference}/reversals` requests Adyen received for the payment's pspReference. */
    public synchronized List<Map<String, Object>> reversalsOf(String paymentPspReference) {
        return reversals.stream().filter(r -> paymentPspReference.equals(r.get("paymentPspReference")))
                .map(LinkedHashMap::new).map(m -> (Map<String, Object>) m).toList();
    }

    /**
     * The notification items Adyen has to send since the last call (TECHNICAL_CANCEL after `/cancels`,
     * CANCEL_OR_REFUND after `/reversals`, and whatever {@link #authorisation}, {@link #refundFailed},
     * {@link #refundReversed} and {@link #chargeback} queued), oldest first, as specs for {@link #notification};
     * taken, so sent once.
     */
    public synchronized List<Map<String, Object>> takeNotifications() {
        List<Map<String, Object>> taken = new ArrayList<>(outbox);
        outbox.clear();
        return taken;
    }

    /**
     * Queues the AUTHORISATION notification of a payment the fake processed, as Adyen sends it: merchantReference the
     * payment's `reference`, the `/payments` metadata returned as `additionalData.metadata.<key>` (Adyen, "Webhooks:
     * additionalData", AuthorisationNotificationAdditionalData.metadata in Webhooks-v1.json).
     */
    public synchronized FakeAdyen authorisation(String pspReference, boolean success) {
        Map<String, Object> payment = payment(pspReference);
        Map<String, Object> item = item("AUTHORISATION", pspReference, null, (String) payment.get("reference"),
                success, payment);
        item.put("additionalData", metadataOf(payment));
        item.put("reason", success ? "" : "Refused");
        outbox.add(item);
        return this;
    }

    /**
     * Decides a `Received` payment's outcome, as Adyen does once the shopper's bank answers (auto-capture: authorised
     * is captured; a manual capture stays authorised), unless a cancel by reference got there first: returns the
     * payment's state then (`captured`, `authorised`, `refused`, or `cancelled` when the cancel won). A decided payment
     * keeps its state.
     */
    public synchronized String settleReceived(String pspReference, boolean authorise) {
        Map<String, Object> payment = payment(pspReference);
        if ("pending".equals(payment.get("state"))) {
            payment.put("state", !authorise ? "refused" : Boolean.TRUE.equals(payment.get("manualCapture"))
                    ? "authorised" : "captured");
            if (authorise && !Boolean.TRUE.equals(payment.get("manualCapture"))) {
                payment.put("captured", amountValue(payment));
            }
        }
        return String.valueOf(payment.get("state"));
    }

    /** Queues REFUND_FAILED for a refund the fake holds (the card scheme rejected it after Adyen accepted it). */
    public synchronized FakeAdyen refundFailed(String refundPspReference) {
        return refundEvent("REFUND_FAILED", refundPspReference, "Refund Failed");
    }

    /** Queues REFUNDED_REVERSED for a refund the fake holds (the refunded money came back to the merchant). */
    public synchronized FakeAdyen refundReversed(String refundPspReference) {
        return refundEvent("REFUNDED_REVERSED", refundPspReference, "Refund Reversed");
    }

    /** When the fake's notices of chargeback say the merchant's defence period ends. */
    public static final String DEFENSE_PERIOD_ENDS_AT = "2026-12-24T12:17:23+01:00";

    /**
     * Queues a dispute notification item about a payment the fake processed, as Adyen sends them (Webhooks-v1.json
     * of `Adyen/adyen-openapi`, the dispute notifications' additionalData): a pspReference of the dispute report's
     * own, `originalReference` the payment's pspReference, `merchantReference` the payment's reference, success=true,
     * `additionalData` with `chargebackReasonCode` (the given reason), `chargebackSchemeCode`,
     * `modificationMerchantReferences`, `disputeStatus`, and `defensePeriodEndsAt` ({@link #DEFENSE_PERIOD_ENDS_AT})
     * while the dispute can be defended (a notice of chargeback, a request for information, a chargeback).
     *
     * @param adyenValue the disputed amount in Adyen's units of the payment's currency
     */
    public synchronized FakeAdyen chargeback(String paymentPspReference, String eventCode, long adyenValue,
                                             String reason) {
        Map<String, Object> payment = payment(paymentPspReference);
        Map<String, Object> item = item(eventCode, pspReference(), paymentPspReference,
                (String) payment.get("reference"), true, payment);
        item.put("value", adyenValue);
        Map<String, String> additional = new LinkedHashMap<>();
        additional.put("chargebackReasonCode", reason);
        additional.put("chargebackSchemeCode", "visa");
        additional.put("modificationMerchantReferences", "");
        boolean defendable = Set.of("NOTIFICATION_OF_CHARGEBACK", "REQUEST_FOR_INFORMATION", "CHARGEBACK")
                .contains(eventCode);
        additional.put("defendable", String.valueOf(defendable));
        additional.put("disputeStatus", switch (eventCode) {
            case "CHARGEBACK_REVERSED", "PREARBITRATION_WON" -> "Won";
            case "SECOND_CHARGEBACK", "PREARBITRATION_LOST" -> "Lost";
            default -> "Undefended";
        });
        if (defendable) {
            additional.put("defensePeriodEndsAt", DEFENSE_PERIOD_ENDS_AT);
        }
        item.put("additionalData", additional);
        outbox.add(item);
        return this;
    }

    private FakeAdyen refundEvent(String eventCode, String refundPspReference, String reason) {
        Map<String, Object> refund = refunds.stream().filter(r -> refundPspReference.equals(r.get("pspReference")))
                .findFirst().orElseThrow(() -> new IllegalArgumentException("no refund " + refundPspReference));
        @SuppressWarnings("unchecked")
        Map<String, Object> amount = (Map<String, Object>) refund.get("amount");
        Map<String, Object> item = new LinkedHashMap<>();
        item.put("eventCode", eventCode);
        item.put("pspReference", refundPspReference);
        item.put("originalReference", refund.get("paymentPspReference"));
        item.put("merchantReference", refund.get("reference"));
        item.put("success", true);
        item.put("value", amount.get("value"));
        item.put("currency", amount.get("currency"));
        item.put("reason", reason);
        outbox.add(item);
        return this;
    }

    private Map<String, Object> payment(String pspReference) {
        return payments.stream().filter(p -> pspReference.equals(p.get("pspReference"))).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no payment " + pspReference));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, String> metadataOf(Map<String, Object> payment) {
        Map<String, String> additional = new LinkedHashMap<>();
        ((Map<String, String>) payment.getOrDefault("metadata", Map.of()))
                .forEach((key, value) -> additional.put("metadata." + key, value));
        return additional;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> item(String eventCode, String pspReference, String originalReference,
                                            String merchantReference, boolean success, Map<String, Object> payment) {
        Map<String, Object> amount = (Map<String, Object>) payment.get("amount");
        Map<String, Object> item = new LinkedHashMap<>();
        item.put("eventCode", eventCode);
        item.put("pspReference", pspReference);
        if (originalReference != null) {
            item.put("originalReference", originalReference);
        }
        item.put("merchantReference", merchantReference);
        item.put("success", success);
        item.put("value", ((Number) amount.get("value")).longValue());
        item.put("currency", amount.get("currency"));
        item.put("reason", "");
        return item;
    }

    private final List<Map<String, Object>> refunds = new ArrayList<>();

    /** Refunds Adyen received for the payment's pspReference (`POST /payments/{pspReference}/refunds`). */
    public synchronized List<Map<String, Object>> refundsOf(String paymentPspReference) {
        return refunds.stream().filter(r -> paymentPspReference.equals(r.get("paymentPspReference")))
                .map(LinkedHashMap::new).map(m -> (Map<String, Object>) m).toList();
    }

    /**
     * Everything Adyen gave back of the payment: its refunds ({@link #refundsOf}) and the reversals that cancelled or
     * refunded it (`/reversals`, with the payment's whole amount), each with `pspReference`, `reference` (our refund
     * id) and `amount` in Adyen's units.
     */
    public synchronized List<Map<String, Object>> givenBack(String paymentPspReference) {
        List<Map<String, Object>> all = new ArrayList<>(refundsOf(paymentPspReference));
        reversals.stream().filter(r -> paymentPspReference.equals(r.get("paymentPspReference"))
                        && !"none".equals(r.get("action")))
                .map(r -> (Map<String, Object>) new LinkedHashMap<>(r))
                .forEach(all::add);
        return all;
    }

    /** The value for `payments.connectors.adyen.checkout-url`. */
    public String checkoutUrl() {
        return base() + "/v71";
    }

    private String base() {
        return "http://localhost:" + server.port();
    }

    /**
     * A stored payment method id starting with this needs 3-D Secure by redirect: `/payments` answers `RedirectShopper`
     * with an `action` of type `redirect` (GET) to the fake's own page (`/threeds/{pspReference}`), where the shopper
     * approves or refuses (the sandbox's token of the same name).
     */
    public static final String THREE_DS = "pm_card_3ds";

    /**
     * A stored payment method id starting with this needs native 3-D Secure 2: `IdentifyShopper` with an action of
     * type `threeDS2`, which only Adyen's JavaScript components in the merchant's page can perform.
     */
    public static final String NATIVE_THREE_DS = "pm_card_3ds_native";

    /** The fake's state of a payment waiting for its shopper (`RedirectShopper`, `IdentifyShopper`). */
    public static final String AWAITING_SHOPPER = "awaiting_shopper";

    /** The shopper's decisions on the fake's page, by the `redirectResult` they brought back: pspReference. */
    private final Map<String, String> redirectResults = new HashMap<>();

    /** The `returnUrl` Adyen received with the payment, or null. */
    public synchronized String returnUrlOf(String pspReference) {
        return (String) payment(pspReference).get("returnUrl");
    }

    /** `POST /payments/details` requests Adyen received, oldest first: `redirectResult`, `idempotencyKey`. */
    private final List<Map<String, Object>> detailsRequests = new ArrayList<>();

    /** `POST /payments/details` requests Adyen received with this payment's redirectResults. */
    public synchronized List<Map<String, Object>> detailsOf(String pspReference) {
        return detailsRequests.stream().filter(d -> pspReference.equals(d.get("paymentPspReference")))
                .map(LinkedHashMap::new).map(m -> (Map<String, Object>) m).toList();
    }

    /**
     * The shopper's page of a `RedirectShopper` payment, with no API key (the shopper's browser): `GET
     * /threeds/{pspReference}` is an HTML form posting `decision` (`approve` or `refuse`, buttons `id="approve"` and
     * `id="refuse"`) to the same path. The POST decides the payment as the issuer would (approve: authorised, captured
     * unless manual capture; refuse: refused), queues its AUTHORISATION ({@link #takeNotifications}) and answers 302
     * to the payment's `returnUrl` with `redirectResult=<opaque>` added to its query. A payment no longer waiting
     * (decided, cancelled): 409, nothing changes; an unknown one: 404.
     */
    private ResponseDefinition shopperPage(Request request) {
        String url = request.getUrl();
        int query = url.indexOf('?');
        String psp = (query < 0 ? url : url.substring(0, query)).substring("/threeds/".length());
        Map<String, Object> payment = payments.stream().filter(p -> psp.equals(p.get("pspReference"))).findFirst()
                .orElse(null);
        if (payment == null) {
            return html(404, "<p>No such payment.</p>");
        }
        if (!AWAITING_SHOPPER.equals(payment.get("state")) || !"redirect".equals(actionType(payment))) {
            return html(409, "<p>This payment no longer waits for you (" + payment.get("state") + ").</p>");
        }
        if (request.getMethod().getName().equals("GET")) {
            return html(200, "<h1>3-D Secure</h1><p id=\"amount\">" + amountValue(payment) + " "
                    + currencyOf(payment) + "</p><form method=\"post\" action=\"/threeds/" + psp + "\">"
                    + "<button id=\"approve\" name=\"decision\" value=\"approve\">Approve</button>"
                    + "<button id=\"refuse\" name=\"decision\" value=\"refuse\">Refuse</button></form>");
        }
        String body = request.getBodyAsString();
        boolean approve = body.contains("decision=approve");
        if (!approve && !body.contains("decision=refuse")) {
            return html(400, "<p>Approve or refuse.</p>");
        }
        boolean manual = Boolean.TRUE.equals(payment.get("manualCapture"));
        payment.put("state", !approve ? "refused" : manual ? "authorised" : "captured");
        if (approve && !manual) {
            payment.put("captured", amountValue(payment));
        }
        authorisation(psp, approve);
        String redirectResult = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(
                (UUID.randomUUID() + ":" + psp).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        redirectResults.put(redirectResult, psp);
        String returnUrl = (String) payment.get("returnUrl");
        String location = returnUrl + (returnUrl.contains("?") ? "&" : "?") + "redirectResult=" + redirectResult;
        return aResponse().withStatus(302).withHeader("Location", location).build();
    }

    private static Object actionType(Map<String, Object> payment) {
        return String.valueOf(payment.get("token")).startsWith(NATIVE_THREE_DS) ? "threeDS2" : "redirect";
    }

    private static ResponseDefinition html(int status, String body) {
        return aResponse().withStatus(status).withHeader("Content-Type", "text/html; charset=utf-8")
                .withBody("<!doctype html><html><body>" + body + "</body></html>").build();
    }

    /**
     * `POST /payments/details` (PaymentDetailsRequest `details.redirectResult`): answered 200 with a
     * PaymentDetailsResponse (shaped as the example `post-payments-details-payment-details-200` of
     * CheckoutService-v71.json): the decided payment's `resultCode` (`Authorised`, `Refused` with `refusalReason`, or
     * `Cancelled` when it was cancelled first), `pspReference`, `merchantReference`, `amount`. Idempotent on the key.
     * A redirectResult the fake never gave: 422 validation.
     */
    private ResponseDefinition details(Request request) {
        String idempotencyKey = request.getHeader("Idempotency-Key");
        String saved = idempotencyKey != null ? idempotent.get("details:" + idempotencyKey) : null;
        if (saved == null) {
            String redirectResult = JSON.readTree(request.getBodyAsString()).path("details").path("redirectResult")
                    .asString();
            String psp = redirectResults.get(redirectResult);
            if (psp == null) {
                return json(422, error(422, "000", "Invalid redirectResult", "validation", pspReference()));
            }
            Map<String, Object> payment = payment(psp);
            String state = (String) payment.get("state");
            Map<String, Object> result = new LinkedHashMap<>();
            result.put("pspReference", psp);
            switch (state) {
                case "authorised", "captured" -> {
                    result.put("additionalData", Map.of("authCode", "065696", "refusalReasonRaw", "AUTHORISED"));
                    result.put("resultCode", "Authorised");
                }
                case "refused" -> {
                    result.put("refusalReason", "3D Not Authenticated");
                    result.put("refusalReasonCode", "11");
                    result.put("resultCode", "Refused");
                }
                default -> result.put("resultCode", "Cancelled");
            }
            result.put("amount", payment.get("amount"));
            result.put("merchantReference", payment.get("reference"));
            saved = JSON.writeValueAsString(result);
            if (idempotencyKey != null) {
                idempotent.put("details:" + idempotencyKey, saved);
            }
            Map<String, Object> record = new LinkedHashMap<>();
            record.put("paymentPspReference", psp);
            record.put("redirectResult", redirectResult);
            record.put("idempotencyKey", idempotencyKey);
            detailsRequests.add(record);
        }
        return answer(200, saved, JSON.readTree(saved).path("pspReference").asString(), idempotencyKey, 0);
    }

    public FakeAdyen acceptKey(String apiKey) {
        validKeys.add(apiKey);
        return this;
    }

    public synchronized void failNext(String storedPaymentMethodOrHolder, Failure failure) {
        failures.computeIfAbsent(storedPaymentMethodOrHolder, k -> new ArrayDeque<>()).addLast(failure);
    }

    /** Payments Adyen processed for this reference (the payment id), with their request and result. */
    public synchronized List<Map<String, Object>> paymentsFor(String reference) {
        return payments.stream().filter(p -> reference.equals(p.get("reference"))).map(LinkedHashMap::new)
                .map(m -> (Map<String, Object>) m).toList();
    }

    /** Every payment Adyen processed, oldest first. */
    public synchronized List<Map<String, Object>> payments() {
        return payments.stream().map(LinkedHashMap::new).map(m -> (Map<String, Object>) m).toList();
    }

    /**
     * A notification batch with one item per entry (eventCode AUTHORISATION unless the spec names one), each signed
     * with {@code hmacKey} (hex) or the spec's `signWith`; a spec's `additionalData` map (e.g. `metadata.attempt`) is
     * sent as the item's additionalData (not part of the HMAC, as at Adyen).
     */
    public static String notification(String merchantAccount, String hmacKey, List<Map<String, Object>> items) {
        List<Map<String, Object>> containers = new ArrayList<>();
        for (Map<String, Object> spec : items) {
            NotificationRequestItem item = new NotificationRequestItem()
                    .setPspReference((String) spec.get("pspReference"))
                    .setMerchantAccountCode(merchantAccount)
                    .setMerchantReference((String) spec.get("merchantReference"))
                    .setEventCode((String) spec.getOrDefault("eventCode", "AUTHORISATION"))
                    .setOriginalReference((String) spec.get("originalReference"))
                    .setSuccess((Boolean) spec.get("success"));
            Amount amount = new Amount();
            amount.setValue((Long) spec.get("value"));
            amount.setCurrency((String) spec.get("currency"));
            item.setAmount(amount);
            String signature;
            try {
                signature = new HMACValidator().calculateHMAC(item, (String) spec.getOrDefault("signWith", hmacKey));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            Map<String, Object> json = new LinkedHashMap<>();
            Map<String, Object> additionalData = new LinkedHashMap<>();
            if (spec.get("additionalData") instanceof Map<?, ?> extra) {
                extra.forEach((key, value) -> additionalData.put(String.valueOf(key), String.valueOf(value)));
            }
            additionalData.put("hmacSignature", signature);
            json.put("additionalData", additionalData);
            json.put("amount", Map.of("currency", spec.get("currency"), "value", spec.get("value")));
            json.put("eventCode", spec.getOrDefault("eventCode", "AUTHORISATION"));
            if (spec.get("originalReference") != null) {
                json.put("originalReference", spec.get("originalReference"));
            }
            json.put("eventDate", "2026-11-30T23:59:59+01:00");
            json.put("merchantAccountCode", merchantAccount);
            json.put("merchantReference", spec.get("merchantReference"));
            json.put("paymentMethod", "visa");
            json.put("pspReference", spec.get("pspReference"));
            json.put("reason", spec.getOrDefault("reason", ""));
            json.put("success", String.valueOf(spec.get("success")));
            containers.add(Map.of("NotificationRequestItem", json));
        }
        return JSON.writeValueAsString(Map.of("live", "false", "notificationItems", containers));
    }

    @Override
    public void close() {
        server.stop();
    }

    private static String pspReference() {
        return Long.toString(Math.abs(UUID.randomUUID().getMostSignificantBits()) % 10_000_000_000_000_000L
                + 1_000_000_000_000_000L).substring(0, 16);
    }

    private static ResponseDefinition json(int status, String body) {
        return aResponse().withStatus(status).withHeader("Content-Type", "application/json").withBody(body).build();
    }

    /**
     * An answer with Adyen's headers: `pspReference` (the payment's, or the error's), and `Idempotency-Key` echoed
     * when the request had one (CheckoutService-v71.json, components.headers.Idempotency-Key).
     */
    private static ResponseDefinition answer(int status, String body, String pspReference, String idempotencyKey,
                                             int delayMillis) {
        var response = aResponse().withStatus(status).withHeader("Content-Type", "application/json")
                .withHeader("pspReference", pspReference).withBody(body);
        if (idempotencyKey != null) {
            response = response.withHeader("Idempotency-Key", idempotencyKey);
        }
        return (delayMillis > 0 ? response.withFixedDelay(delayMillis) : response).build();
    }

    /**
     * A `ServiceError` (CheckoutService-v71.json, components.schemas.ServiceError; examples generic-401/-422/-500):
     * `status`, `errorCode`, `message`, `errorType`, and `pspReference` when Adyen gave the request one.
     */
    private static String error(int status, String code, String message, String type) {
        return error(status, code, message, type, null);
    }

    private static String error(int status, String code, String message, String type, String pspReference) {
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("status", status);
        error.put("errorCode", code);
        error.put("message", message);
        error.put("errorType", type);
        if (pspReference != null) {
            error.put("pspReference", pspReference);
        }
        return JSON.writeValueAsString(error);
    }

    /** Adyen's refusal of an amount in the wrong units for its currency table, or null when it is valid. */
    private static ResponseDefinition invalidAmount(JsonNode amount) {
        String currency = amount.path("currency").asString();
        long value = amount.path("value").asLong();
        if (WHOLE_UNITS_WITH_TWO_DECIMALS.contains(currency) && value % 100 != 0) {
            return json(422, error(422, "137", "Invalid amount specified: " + currency + " is written with "
                    + ADYEN_DECIMALS.get(currency) + " decimals and has no subunit (" + value + ")", "validation",
                    pspReference()));
        }
        return null;
    }

    /**
     * `POST /cancels` (StandalonePaymentCancelRequest: merchantAccount, paymentReference, reference): answered 201
     * `received` (StandalonePaymentCancelResponse), idempotent on the key; then a TECHNICAL_CANCEL is queued for the
     * latest payment with that reference: success=true when it held an uncaptured authorisation (now cancelled), a
     * pending one, or nothing (no originalReference then); success=false when that payment is captured.
     */
    private ResponseDefinition cancelByReference(Request request) {
        String idempotencyKey = request.getHeader("Idempotency-Key");
        String saved = idempotencyKey != null ? idempotent.get("cancel:" + idempotencyKey) : null;
        if (saved == null) {
            JsonNode body = JSON.readTree(request.getBodyAsString());
            String paymentReference = body.path("paymentReference").asString();
            Map<String, Object> result = new LinkedHashMap<>();
            result.put("merchantAccount", body.path("merchantAccount").asString());
            result.put("paymentReference", paymentReference);
            result.put("pspReference", pspReference());
            if (body.hasNonNull("reference")) {
                result.put("reference", body.path("reference").asString());
            }
            result.put("status", "received");
            saved = JSON.writeValueAsString(result);
            if (idempotencyKey != null) {
                idempotent.put("cancel:" + idempotencyKey, saved);
            }
            Map<String, Object> record = new LinkedHashMap<>(result);
            record.put("idempotencyKey", idempotencyKey);
            cancels.add(record);
            outbox.add(technicalCancel((String) result.get("pspReference"), paymentReference));
        }
        return answer(201, saved, JSON.readTree(saved).path("pspReference").asString(), idempotencyKey, 0);
    }

    private Map<String, Object> technicalCancel(String cancelPsp, String paymentReference) {
        Map<String, Object> held = null;
        for (Map<String, Object> payment : payments) {
            if (paymentReference.equals(payment.get("reference"))) {
                held = payment;
            }
        }
        if (held == null) {
            Map<String, Object> nothing = new LinkedHashMap<>();
            nothing.put("eventCode", "TECHNICAL_CANCEL");
            nothing.put("pspReference", cancelPsp);
            nothing.put("merchantReference", paymentReference);
            nothing.put("success", true);
            nothing.put("value", 0L);
            nothing.put("currency", "EUR");
            nothing.put("reason", "");
            return nothing;
        }
        boolean captured = "captured".equals(held.get("state"));
        if (!captured) {
            held.put("state", "cancelled");
        }
        Map<String, Object> item = item("TECHNICAL_CANCEL", cancelPsp, (String) held.get("pspReference"),
                paymentReference, !captured, held);
        item.put("additionalData", metadataOf(held));
        item.put("reason", captured ? "Payment already captured" : "");
        return item;
    }

    /**
     * `POST /payments/{pspReference}/reversals` (PaymentReversalRequest: merchantAccount, reference; no amount: the
     * whole payment): answered 201 `received` (PaymentReversalResponse), idempotent on the key; then CANCEL_OR_REFUND
     * is queued: an uncaptured authorisation is cancelled, a captured payment refunded
     * (`additionalData.modification.action` `cancel` or `refund`); success=false for a payment already reversed or
     * cancelled, or one the fake never made.
     */
    private ResponseDefinition reversal(Request request) {
        String idempotencyKey = request.getHeader("Idempotency-Key");
        String saved = idempotencyKey != null ? idempotent.get("reversal:" + idempotencyKey) : null;
        if (saved == null) {
            JsonNode body = JSON.readTree(request.getBodyAsString());
            String url = request.getUrl();
            String paymentPsp = url.substring("/v71/payments/".length(), url.length() - "/reversals".length());
            Map<String, Object> result = new LinkedHashMap<>();
            result.put("merchantAccount", body.path("merchantAccount").asString());
            result.put("paymentPspReference", paymentPsp);
            result.put("pspReference", pspReference());
            result.put("reference", body.path("reference").asString());
            result.put("status", "received");
            saved = JSON.writeValueAsString(result);
            if (idempotencyKey != null) {
                idempotent.put("reversal:" + idempotencyKey, saved);
            }
            Map<String, Object> payment = payments.stream().filter(p -> paymentPsp.equals(p.get("pspReference")))
                    .findFirst().orElse(null);
            String state = payment == null ? "none" : (String) payment.get("state");
            boolean reversible = "captured".equals(state) || "authorised".equals(state);
            String action = "captured".equals(state) ? "refund" : "cancel";
            Map<String, Object> record = new LinkedHashMap<>(result);
            record.put("idempotencyKey", idempotencyKey);
            record.put("action", reversible ? action : "none");
            if (reversible) {
                record.put("amount", payment.get("amount"));
            }
            reversals.add(record);
            Map<String, Object> item;
            if (payment != null) {
                item = item("CANCEL_OR_REFUND", (String) result.get("pspReference"), paymentPsp,
                        (String) result.get("reference"), reversible, payment);
                payment.put("state", reversible ? "reversed" : state);
            } else {
                item = new LinkedHashMap<>(Map.of("eventCode", "CANCEL_OR_REFUND",
                        "pspReference", result.get("pspReference"), "originalReference", paymentPsp,
                        "merchantReference", result.get("reference"), "success", false, "value", 0L,
                        "currency", "EUR"));
            }
            item.put("additionalData", Map.of("modification.action", action));
            item.put("reason", reversible ? "" : "Original pspReference not reversible (" + state + ")");
            outbox.add(item);
        }
        return answer(201, saved, JSON.readTree(saved).path("pspReference").asString(), idempotencyKey, 0);
    }

    /**
     * `POST /payments/{pspReference}/captures` (PaymentCaptureRequest: amount, merchantAccount, reference): answered
     * 201 `received` (PaymentCaptureResponse, example `post-payments-paymentPspReference-captures-capture-201`),
     * idempotent on the key (the same key answers the saved result and captures nothing more). Then, as Adyen:
     * `CAPTURE` success=true for an authorised payment (the captured amount; a partial capture cancels the rest, as
     * Adyen does without multiple partial captures enabled), success=false for one not authorised (captured,
     * cancelled, unknown) or an amount above the authorised one; `CAPTURE_FAILED` for a payment of
     * {@link #CAPTURE_FAILS} (the money stays authorised). Modification notifications carry no `/payments` metadata
     * (CaptureAdditionalData in Webhooks-v1.json): `originalReference` is the payment's pspReference and
     * `merchantReference` the capture's `reference`.
     */
    private ResponseDefinition capture(Request request) {
        String idempotencyKey = request.getHeader("Idempotency-Key");
        String paymentPsp = pathPsp(request, "/captures");
        Deque<Failure> queued = captureFailures.get(paymentPsp);
        Failure failure = queued == null ? null : queued.pollFirst();
        String saved = idempotencyKey != null ? idempotent.get("capture:" + idempotencyKey) : null;
        if (saved == null) {
            JsonNode body = JSON.readTree(request.getBodyAsString());
            ResponseDefinition invalid = invalidAmount(body.path("amount"));
            if (invalid != null) {
                return invalid;
            }
            long value = body.path("amount").path("value").asLong();
            String currency = body.path("amount").path("currency").asString();
            Map<String, Object> result = new LinkedHashMap<>();
            result.put("amount", Map.of("currency", currency, "value", value));
            result.put("merchantAccount", body.path("merchantAccount").asString());
            result.put("paymentPspReference", paymentPsp);
            result.put("pspReference", pspReference());
            if (body.hasNonNull("reference")) {
                result.put("reference", body.path("reference").asString());
            }
            result.put("status", "received");
            saved = JSON.writeValueAsString(result);
            if (idempotencyKey != null) {
                idempotent.put("capture:" + idempotencyKey, saved);
            }
            Map<String, Object> payment = payments.stream().filter(p -> paymentPsp.equals(p.get("pspReference")))
                    .findFirst().orElse(null);
            String state = payment == null ? "none" : (String) payment.get("state");
            String outcome;
            String reason = "";
            if (!"authorised".equals(state)) {
                outcome = "refused";
                reason = "Original pspReference not capturable (" + state + ")";
            } else if (value > amountValue(payment)) {
                outcome = "refused";
                reason = "Capture amount exceeds the authorised amount";
            } else if (String.valueOf(payment.get("token")).startsWith(CAPTURE_FAILS)) {
                outcome = "failed";
                reason = CAPTURE_REJECTED;
            } else {
                outcome = "captured";
                payment.put("state", "captured");
                payment.put("captured", value);
            }
            Map<String, Object> record = new LinkedHashMap<>(result);
            record.put("idempotencyKey", idempotencyKey);
            record.put("outcome", outcome);
            captures.add(record);
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("eventCode", "failed".equals(outcome) ? "CAPTURE_FAILED" : "CAPTURE");
            item.put("pspReference", result.get("pspReference"));
            item.put("originalReference", paymentPsp);
            item.put("merchantReference", result.getOrDefault("reference",
                    payment == null ? "" : payment.get("reference")));
            item.put("success", !"refused".equals(outcome));
            item.put("value", value);
            item.put("currency", currency);
            item.put("reason", reason);
            outbox.add(item);
        }
        String psp = JSON.readTree(saved).path("pspReference").asString();
        if (failure == Failure.ERROR_500_AFTER_CAPTURE) {
            return answer(500, error(500, "000", "An unknown error occurred", "internal", psp), psp, idempotencyKey,
                    0);
        }
        return answer(201, saved, psp, idempotencyKey, 0);
    }

    /**
     * `POST /payments/{pspReference}/cancels` (PaymentCancelRequest: merchantAccount, reference): answered 201
     * `received` (PaymentCancelResponse, example
     * `post-payments-paymentPspReference-cancels-cancel-with-psp-reference-201`), idempotent on the key; then `CANCELLATION`: success=true when the payment was authorised and not captured (now
     * cancelled: nothing can be captured any more), success=false when it was captured or is not held.
     */
    private ResponseDefinition release(Request request) {
        String idempotencyKey = request.getHeader("Idempotency-Key");
        String saved = idempotencyKey != null ? idempotent.get("release:" + idempotencyKey) : null;
        if (saved == null) {
            JsonNode body = JSON.readTree(request.getBodyAsString());
            String paymentPsp = pathPsp(request, "/cancels");
            Map<String, Object> result = new LinkedHashMap<>();
            result.put("merchantAccount", body.path("merchantAccount").asString());
            result.put("paymentPspReference", paymentPsp);
            result.put("pspReference", pspReference());
            if (body.hasNonNull("reference")) {
                result.put("reference", body.path("reference").asString());
            }
            result.put("status", "received");
            saved = JSON.writeValueAsString(result);
            if (idempotencyKey != null) {
                idempotent.put("release:" + idempotencyKey, saved);
            }
            Map<String, Object> payment = payments.stream().filter(p -> paymentPsp.equals(p.get("pspReference")))
                    .findFirst().orElse(null);
            String state = payment == null ? "none" : (String) payment.get("state");
            boolean released = "authorised".equals(state) || "pending".equals(state) || AWAITING_SHOPPER.equals(state);
            if (released) {
                payment.put("state", "cancelled");
            }
            Map<String, Object> record = new LinkedHashMap<>(result);
            record.put("idempotencyKey", idempotencyKey);
            record.put("released", released);
            releases.add(record);
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("eventCode", "CANCELLATION");
            item.put("pspReference", result.get("pspReference"));
            item.put("originalReference", paymentPsp);
            item.put("merchantReference", result.getOrDefault("reference",
                    payment == null ? "" : payment.get("reference")));
            item.put("success", released);
            item.put("value", payment == null ? 0L : amountValue(payment));
            item.put("currency", payment == null ? "EUR" : currencyOf(payment));
            item.put("reason", released ? "" : "Original pspReference not cancellable (" + state + ")");
            outbox.add(item);
        }
        return answer(201, saved, JSON.readTree(saved).path("pspReference").asString(), idempotencyKey, 0);
    }

    private static String pathPsp(Request request, String suffix) {
        String url = request.getUrl();
        int query = url.indexOf('?');
        String path = query < 0 ? url : url.substring(0, query);
        return path.substring("/v71/payments/".length(), path.length() - suffix.length());
    }

    @SuppressWarnings("unchecked")
    private static long amountValue(Map<String, Object> payment) {
        return ((Number) ((Map<String, Object>) payment.get("amount")).get("value")).longValue();
    }

    @SuppressWarnings("unchecked")
    private static String currencyOf(Map<String, Object> payment) {
        return (String) ((Map<String, Object>) payment.get("amount")).get("currency");
    }

    /** Adyen acknowledges a refund (`received`); the outcome comes by REFUND notification. Idempotent on the key. */
    private ResponseDefinition refund(Request request) {
        String idempotencyKey = request.getHeader("Idempotency-Key");
        String saved = idempotencyKey != null ? idempotent.get("refund:" + idempotencyKey) : null;
        if (saved == null) {
            JsonNode body = JSON.readTree(request.getBodyAsString());
            ResponseDefinition invalid = invalidAmount(body.path("amount"));
            if (invalid != null) {
                return invalid;
            }
            String url = request.getUrl();
            String paymentPsp = url.substring("/v71/payments/".length(), url.length() - "/refunds".length());
            Map<String, Object> result = new LinkedHashMap<>();
            result.put("merchantAccount", body.path("merchantAccount").asString());
            result.put("paymentPspReference", paymentPsp);
            result.put("pspReference", pspReference());
            result.put("reference", body.path("reference").asString());
            result.put("status", "received");
            result.put("amount", Map.of("currency", body.path("amount").path("currency").asString(),
                    "value", body.path("amount").path("value").asLong()));
            saved = JSON.writeValueAsString(result);
            if (idempotencyKey != null) {
                idempotent.put("refund:" + idempotencyKey, saved);
            }
            Map<String, Object> record = new LinkedHashMap<>(result);
            record.put("idempotencyKey", idempotencyKey);
            refunds.add(record);
        }
        return answer(201, saved, JSON.readTree(saved).path("pspReference").asString(), idempotencyKey, 0);
    }

    private final class Behaviour implements ResponseDefinitionTransformerV2 {

        static final String NAME = "fake-adyen";

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
            if (request.getUrl().startsWith("/threeds/")) {
                synchronized (FakeAdyen.this) {
                    return shopperPage(request);
                }
            }
            String key = request.getHeader("X-API-Key");
            if (key == null || !validKeys.contains(key)) {
                return json(401, error(401, "000", "HTTP Status Response - Unauthorized", "security"));
            }
            synchronized (FakeAdyen.this) {
                if (request.getUrl().startsWith("/v71/payments/details")) {
                    return details(request);
                }
                if (request.getUrl().endsWith("/refunds")) {
                    return refund(request);
                }
                if (request.getUrl().endsWith("/reversals")) {
                    return reversal(request);
                }
                if (request.getUrl().startsWith("/v71/cancels")) {
                    return cancelByReference(request);
                }
                if (request.getUrl().endsWith("/captures")) {
                    return capture(request);
                }
                if (request.getUrl().endsWith("/cancels")) {
                    return release(request);
                }
                String body = request.getBodyAsString();
                JsonNode payment = JSON.readTree(body);
                ResponseDefinition invalid = invalidAmount(payment.path("amount"));
                if (invalid != null) {
                    return invalid;
                }
                JsonNode method = payment.path("paymentMethod");
                String token = method.hasNonNull("storedPaymentMethodId")
                        ? method.get("storedPaymentMethodId").asString() : method.path("holderName").asString();
                Deque<Failure> queued = failures.get(token);
                Failure failure = queued == null ? null : queued.pollFirst();
                if (failure == Failure.ERROR_500_BEFORE_CHARGE) {
                    return json(500, error(500, "905", "Payment details are not supported", "configuration",
                            pspReference()));
                }
                String idempotencyKey = request.getHeader("Idempotency-Key");
                String saved = idempotencyKey != null ? idempotent.get(idempotencyKey) : null;
                if (saved == null) {
                    Map<String, Object> result = new LinkedHashMap<>();
                    result.put("pspReference", pspReference());
                    if (token.equals("REFUSED") || token.startsWith("pm_card_chargeDeclined")) {
                        result.put("refusalReason", "Refused");
                        result.put("refusalReasonCode", "2");
                        result.put("resultCode", "Refused");
                    } else if (token.startsWith(NATIVE_THREE_DS)) {
                        result.put("action", Map.of("authorisationToken", "Ab02b4c0!BQABAgA", "paymentData",
                                "Ab02b4c0!BQABAgCW5sxB4e", "paymentMethodType", "scheme", "token",
                                "eyJ0aHJlZURTTWV0aG9kTm90aWZpY2F0aW9uVVJMIjoi", "type", "threeDS2"));
                        result.put("resultCode", "IdentifyShopper");
                    } else if (token.startsWith(THREE_DS)) {
                        String psp = (String) result.get("pspReference");
                        result.put("action", Map.of("method", "GET", "paymentMethodType", "scheme", "type", "redirect",
                                "url", base() + "/threeds/" + psp));
                        result.put("resultCode", "RedirectShopper");
                    } else if (token.startsWith("pm_card_processing")) {
                        result.put("resultCode", "Received");
                    } else {
                        result.put("additionalData", Map.of("authCode", "065696", "cvcResult", "1 Matches",
                                "refusalReasonRaw", "AUTHORISED", "acquirerCode", "TestPmmAcquirer"));
                        result.put("resultCode", "Authorised");
                    }
                    result.put("amount", Map.of("currency", payment.path("amount").path("currency").asString(),
                            "value", payment.path("amount").path("value").asLong()));
                    result.put("merchantReference", payment.path("reference").asString());
                    saved = JSON.writeValueAsString(result);
                    if (idempotencyKey != null) {
                        idempotent.put(idempotencyKey, saved);
                    }
                    Map<String, Object> record = new LinkedHashMap<>(result);
                    record.put("reference", payment.path("reference").asString());
                    record.put("merchantAccount", payment.path("merchantAccount").asString());
                    record.put("idempotencyKey", idempotencyKey);
                    record.put("metadata.attempt", payment.path("metadata").path("attempt").asString());
                    Map<String, String> metadata = new LinkedHashMap<>();
                    payment.path("metadata").properties()
                            .forEach(entry -> metadata.put(entry.getKey(), entry.getValue().asString()));
                    record.put("metadata", metadata);
                    boolean manualCapture = "true".equals(payment.path("additionalData").path("manualCapture")
                            .asString());
                    record.put("state", switch ((String) result.get("resultCode")) {
                        case "Authorised" -> manualCapture ? "authorised" : "captured";
                        case "Received" -> "pending";
                        case "RedirectShopper", "IdentifyShopper" -> AWAITING_SHOPPER;
                        default -> "refused";
                    });
                    record.put("manualCapture", manualCapture);
                    record.put("token", token);
                    if (payment.hasNonNull("returnUrl")) {
                        record.put("returnUrl", payment.path("returnUrl").asString());
                    }
                    record.put("captured", "captured".equals(record.get("state"))
                            ? payment.path("amount").path("value").asLong() : 0L);
                    payments.add(record);
                }
                String psp = JSON.readTree(saved).path("pspReference").asString();
                if (failure == Failure.ERROR_500_AFTER_CHARGE) {
                    // Adyen answers the first attempt's result to a retry with the key, so the saved one stays.
                    return answer(500, error(500, "000", "An unknown error occurred", "internal", psp), psp,
                            idempotencyKey, 0);
                }
                return answer(200, saved, psp, idempotencyKey, failure == Failure.HOLD_AFTER_CHARGE ? HOLD
                        : failure == Failure.TIMEOUT_AFTER_CHARGE ? LATE : 0);
            }
        }
    }
}
