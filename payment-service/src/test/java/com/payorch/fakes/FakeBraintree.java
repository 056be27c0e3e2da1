package com.payorch.fakes;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;

import com.braintreegateway.util.Sha1Hasher;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.extension.ResponseDefinitionTransformerV2;
import com.github.tomakehurst.wiremock.http.Fault;
import com.github.tomakehurst.wiremock.http.Request;
import com.github.tomakehurst.wiremock.http.ResponseDefinition;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import java.io.ByteArrayInputStream;
import java.math.BigDecimal;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * A faithful fake of the part of Braintree's XML gateway API that braintree-java uses for the service, on WireMock
 * (random loopback port): `POST /merchants/{id}/transactions` (a sale), `POST …/transactions/advanced_search_ids` and
 * `…/advanced_search` (the search, by `order_id` and by `ids`), `GET …/transactions/{id}` and `POST
 * …/transactions/{id}/refund`. Like Braintree:
 * <ul>
 *   <li>HTTP Basic `public-key:private-key` is checked (401, empty body, otherwise; 403 for another merchant's
 *       path);</li>
 *   <li>no idempotency keys: every sale makes a transaction, whatever its `orderId`;</li>
 *   <li>Braintree's test nonces (the nonce's prefix decides, so each test may use its own): `fake-valid-nonce` (and
 *       any other) → `submitted_for_settlement` (processor response `1000 Approved`);
 *       `fake-processor-declined-visa-nonce` → a 422 with the `processor_declined` transaction (`2000 Do Not
 *       Honor`); `fake-gateway-rejected-fraud-nonce` → a 422 with a `gateway_rejected` (`fraud`) transaction;
 *       `fake-settlement-pending-nonce` (a fake-only nonce, as an ACH debit behaves) → `settlement_pending` until
 *       {@link #settle} or {@link #declineSettlement};</li>
 *   <li>a refund makes a `credit` transaction with `refunded-transaction-id`, only of a `settled`/`settling` sale
 *       (otherwise 422 validation error `91506`, as Braintree answers), at most the sale's amount left (`91521`);</li>
 *   <li>amounts are decimals in the merchant account's currency ({@link #merchantCurrency}, default EUR);</li>
 *   <li>holds: a sale without `options.submitForSettlement` stays `authorized`; `PUT …/transactions/{id}/
 *       submit_for_settlement` (optional amount, at most the authorised one: `91522`) submits only an `authorized`
 *       sale (`91507` otherwise) and sets its `amount` to the amount settled; `PUT …/transactions/{id}/void` voids an
 *       `authorized` or `submitted_for_settlement` sale (`91504` otherwise); {@link #expireAuthorization} lets an
 *       authorisation lapse (`authorization_expired`); each status event keeps the amount it was for.</li>
 * </ul>
 * Bodies are shaped as Braintree's API answers (the response XML braintree-java's `Transaction`, `Result`,
 * `ResourceCollection` and `WebhookNotification` read; the notification payload and signature as the SDK's own
 * `WebhookTestingGateway.sampleNotification` builds them, a dispute's too: {@link #disputeWebhook});
 * {@code FakeBraintreeFidelityIT} reads each with the SDK.
 * Faults: {@link #failNext} (by nonce, for a sale), {@link #failNextCapture} (by order id, for a capture),
 * {@link #refuseConnections} / {@link #acceptConnections}.
 */
public final class FakeBraintree implements AutoCloseable {

    /** A fault for the next sale with a nonce. */
    public enum Failure {
        /** The sale is made, then the connection closes without an answer. */
        LOSE_RESPONSE_AFTER_CHARGE,
        /** The sale is made, then HTTP 500. */
        ERROR_500_AFTER_CHARGE,
        /** HTTP 500 before anything is made. */
        ERROR_500_BEFORE_CHARGE,
        /** HTTP 401 as for revoked keys, before anything is made. */
        UNAUTHORIZED
    }

    private static final Pattern PATH = Pattern.compile("/merchants/([^/]+)/transactions(?:/([^/]+))?(?:/([a-z_]+))?");

    private final Map<String, String> keys = new HashMap<>();
    private final Map<String, String> merchantOfKey = new HashMap<>();
    private final Map<String, String> currencies = new HashMap<>();
    private final Map<String, Map<String, Object>> transactions = new LinkedHashMap<>();
    private final Map<String, Deque<Failure>> failures = new HashMap<>();
    private final Map<String, Deque<Failure>> captureFailures = new HashMap<>();
    private WireMockServer server;
    private final int port;

    public FakeBraintree() {
        server = start(0);
        port = server.port();
    }

    private WireMockServer start(int onPort) {
        WireMockServer started = new WireMockServer(options().bindAddress("127.0.0.1")
                .port(onPort).extensions(new Behaviour()));
        started.start();
        started.stubFor(any(urlPathMatching("/merchants/.*")).willReturn(aResponse().withTransformers(Behaviour.NAME)));
        return started;
    }

    /** The value for `payments.connectors.braintree.base-url`. */
    public String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    /** Accepts these API keys for this Braintree merchant id. */
    public synchronized FakeBraintree acceptKeys(String merchantId, String publicKey, String privateKey) {
        keys.put(publicKey, privateKey);
        merchantOfKey.put(publicKey, merchantId);
        return this;
    }

    /** The currency of the merchant's (default) merchant account: the sales' currency. */
    public synchronized FakeBraintree merchantCurrency(String merchantId, String currency) {
        currencies.put(merchantId, currency);
        return this;
    }

    public synchronized void failNext(String nonce, Failure failure) {
        failures.computeIfAbsent(nonce, k -> new ArrayDeque<>()).addLast(failure);
    }

    /**
     * Fails the next capture (`submit_for_settlement`) of the sale with this order id: after capturing
     * ({@link Failure#ERROR_500_AFTER_CHARGE}, {@link Failure#LOSE_RESPONSE_AFTER_CHARGE}) or before
     * ({@link Failure#ERROR_500_BEFORE_CHARGE}, {@link Failure#UNAUTHORIZED}).
     */
    public synchronized void failNextCapture(String orderId, Failure failure) {
        captureFailures.computeIfAbsent(orderId, k -> new ArrayDeque<>()).addLast(failure);
    }

    /** Closes the listening socket: every connection is refused until {@link #acceptConnections}. */
    public synchronized void refuseConnections() {
        server.stop();
    }

    public synchronized void acceptConnections() {
        if (!server.isRunning()) {
            server = start(port);
        }
    }

    /** Transactions (sales and credits) made with this order id, oldest first. */
    public synchronized List<Map<String, Object>> withOrderId(String orderId) {
        return transactions.values().stream().filter(t -> orderId.equals(t.get("order-id")))
                .map(t -> (Map<String, Object>) new LinkedHashMap<>(t)).toList();
    }

    /** The credits (refunds) made of this sale, oldest first. */
    public synchronized List<Map<String, Object>> refundsOf(String saleId) {
        return transactions.values().stream().filter(t -> saleId.equals(t.get("refunded-transaction-id")))
                .map(t -> (Map<String, Object>) new LinkedHashMap<>(t)).toList();
    }

    /** How many times a sale with this order id was submitted for settlement after its authorisation (captures). */
    public synchronized long capturesOf(String orderId) {
        return transactions.values().stream().filter(t -> orderId.equals(t.get("order-id")))
                .mapToLong(t -> (Integer) t.get("captures")).sum();
    }

    /** The amount captured of the sales with this order id (in the currency's unit). */
    public synchronized BigDecimal capturedOf(String orderId) {
        return transactions.values().stream().filter(t -> orderId.equals(t.get("order-id")))
                .filter(t -> (Integer) t.get("captures") > 0)
                .filter(t -> List.of("submitted_for_settlement", "settling", "settled").contains(t.get("status")))
                .map(t -> new BigDecimal((String) t.get("amount"))).reduce(BigDecimal.ZERO, BigDecimal::add);
    }

    /** How many times a sale with this order id was voided. */
    public synchronized long voidsOf(String orderId) {
        return transactions.values().stream().filter(t -> orderId.equals(t.get("order-id")))
                .mapToLong(t -> (Integer) t.get("voids")).sum();
    }

    /** The transaction's authorisation lapses, as Braintree marks one left `authorized` too long. */
    public synchronized void expireAuthorization(String transactionId) {
        status(transactionId, "authorization_expired");
    }

    /** Settles the transaction (as braintree-java's `TestingGateway.settle` does in Braintree's sandbox). */
    public synchronized void settle(String transactionId) {
        status(transactionId, "settled");
    }

    public synchronized void declineSettlement(String transactionId) {
        Map<String, Object> transaction = status(transactionId, "settlement_declined");
        transaction.put("processor-settlement-response-code", "4001");
        transaction.put("processor-settlement-response-text", "Settlement Declined");
    }

    private Map<String, Object> status(String transactionId, String status) {
        Map<String, Object> transaction = transactions.get(transactionId);
        transaction.put("status", status);
        transaction.put("updated-at", now());
        status(transaction, status);
        return transaction;
    }

    /**
     * A webhook for the transaction as Braintree posts it: the form body `bt_signature=…&bt_payload=…`, the payload
     * the Base64 of `<notification>` (timestamp, kind, subject = the transaction's XML), signed
     * `public-key|HMAC-SHA1(private key, payload)` as the SDK's `WebhookTestingGateway` does.
     */
    public synchronized String webhook(String kind, String transactionId, String publicKey, String privateKey) {
        String subject = transactionId == null ? "<check type=\"boolean\">true</check>"
                : transactionXml(transactions.get(transactionId));
        Map<String, String> fields = notification(kind, subject, publicKey, privateKey);
        return "bt_signature=" + URLEncoder.encode(fields.get("bt_signature"), StandardCharsets.UTF_8)
                + "&bt_payload=" + URLEncoder.encode(fields.get("bt_payload"), StandardCharsets.UTF_8);
    }

    /**
     * A dispute webhook (`dispute_opened`, `dispute_lost`, `dispute_won`, …) about a chargeback of the sale, as
     * {@link #webhook} posts it: the subject a `<dispute>` shaped as the SDK's `WebhookTestingGateway` samples it
     * (id, amount, dates, kind `chargeback`, status, reason `fraud`, the disputed `<transaction>`), with the sale's
     * id, amount, currency and order id.
     */
    public synchronized String disputeWebhook(String kind, String disputeId, String transactionId, String publicKey,
                                              String privateKey) {
        Map<String, Object> sale = transactions.get(transactionId);
        return form(notification(kind, disputeXml(disputeId, kind, transactionId, (String) sale.get("order-id"),
                (String) sale.get("amount"), (String) sale.get("currency-iso-code")), publicKey, privateKey));
    }

    /** The `<dispute>` of a dispute notification of this kind (the status the kind leaves it in). */
    public static String disputeXml(String disputeId, String kind, String transactionId, String orderId,
                                    String amount, String currency) {
        String today = Instant.now().toString().substring(0, 10);
        String replyBy = Instant.now().plus(7, ChronoUnit.DAYS).toString().substring(0, 10);
        String status = kind.startsWith("dispute_") ? kind.substring("dispute_".length()) : "open";
        return "<dispute>" + el("id", disputeId) + el("amount", amount) + el("amount-disputed", amount)
                + "<received-date type=\"date\">" + today + "</received-date>"
                + "<reply-by-date type=\"date\">" + replyBy + "</reply-by-date>"
                + "<date-opened type=\"date\">" + today + "</date-opened>"
                + el("kind", "chargeback") + el("currency-iso-code", currency)
                + el("status", "opened".equals(status) ? "open" : status) + el("reason", "fraud")
                + el("reason-code", "83")
                + "<transaction>" + el("id", transactionId) + el("amount", amount) + el("order-id", orderId)
                + "</transaction></dispute>";
    }

    /** The form body Braintree posts for these fields. */
    public static String form(Map<String, String> fields) {
        return "bt_signature=" + URLEncoder.encode(fields.get("bt_signature"), StandardCharsets.UTF_8)
                + "&bt_payload=" + URLEncoder.encode(fields.get("bt_payload"), StandardCharsets.UTF_8);
    }

    /** The `bt_signature` and `bt_payload` of a notification of this kind about this subject. */
    public static Map<String, String> notification(String kind, String subjectXml, String publicKey,
                                                   String privateKey) {
        return notification(kind, Instant.parse(now()), subjectXml, publicKey, privateKey);
    }

    /** The same, sent at this time (the notification's `timestamp`). */
    public static Map<String, String> notification(String kind, Instant timestamp, String subjectXml,
                                                   String publicKey, String privateKey) {
        String xml = "<notification><timestamp type=\"datetime\">" + timestamp.truncatedTo(ChronoUnit.SECONDS)
                + "</timestamp><kind>" + kind
                + "</kind><subject>" + subjectXml + "</subject></notification>";
        String payload = Base64.getEncoder().encodeToString(xml.getBytes(StandardCharsets.UTF_8));
        return Map.of("bt_payload", payload,
                "bt_signature", publicKey + "|" + new Sha1Hasher().hmacHash(privateKey, payload));
    }

    @Override
    public synchronized void close() {
        server.stop();
    }

    private static String now() {
        return Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
    }

    private static String id() {
        return UUID.randomUUID().toString().replace("-", "").substring(0, 8);
    }

    // ---- XML ----

    private static String escape(String value) {
        return value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    private static String el(String name, Object value) {
        if (value == null) {
            return "<" + name + " nil=\"true\"/>";
        }
        return "<" + name + ">" + escape(value.toString()) + "</" + name + ">";
    }

    /** A transaction as Braintree's gateway renders it (the fields the service and the SDK read, and their kin). */
    @SuppressWarnings("unchecked")
    static String transactionXml(Map<String, Object> t) {
        StringBuilder xml = new StringBuilder("<transaction>");
        xml.append(el("id", t.get("id"))).append(el("status", t.get("status"))).append(el("type", t.get("type")))
                .append(el("currency-iso-code", t.get("currency-iso-code"))).append(el("amount", t.get("amount")))
                .append(el("merchant-account-id", t.get("merchant-account-id")))
                .append(el("order-id", t.get("order-id")))
                .append("<created-at type=\"datetime\">").append(t.get("created-at")).append("</created-at>")
                .append("<updated-at type=\"datetime\">").append(t.get("updated-at")).append("</updated-at>")
                .append("<customer><id nil=\"true\"/></customer>")
                .append(el("refunded-transaction-id", t.get("refunded-transaction-id")))
                .append("<refund-ids type=\"array\">");
        for (String refund : (List<String>) t.get("refund-ids")) {
            xml.append(el("item", refund));
        }
        xml.append("</refund-ids>")
                .append(el("processor-response-code", t.get("processor-response-code")))
                .append(el("processor-response-text", t.get("processor-response-text")))
                .append(el("processor-response-type", t.get("processor-response-type")))
                .append(el("processor-authorization-code", t.get("processor-authorization-code")))
                .append(el("processor-settlement-response-code", t.get("processor-settlement-response-code")))
                .append(el("processor-settlement-response-text", t.get("processor-settlement-response-text")))
                .append(el("gateway-rejection-reason", t.get("gateway-rejection-reason")))
                .append("<recurring type=\"boolean\">false</recurring>")
                .append(el("payment-instrument-type", "credit_card"))
                .append("<credit-card>").append(el("token", null)).append(el("bin", "411111"))
                .append(el("last-4", "1111")).append(el("card-type", "Visa")).append(el("expiration-month", "12"))
                .append(el("expiration-year", "2030")).append(el("customer-location", "US"))
                .append("</credit-card>")
                .append("<status-history type=\"array\">");
        for (String[] event : (List<String[]>) t.get("status-history")) {
            xml.append("<status-event>").append(el("status", event[0])).append(el("amount", event[1]))
                    .append("<timestamp type=\"datetime\">").append(t.get("updated-at")).append("</timestamp>")
                    .append(el("transaction-source", "api")).append("</status-event>");
        }
        return xml.append("</status-history></transaction>").toString();
    }

    private static String errorResponse(String message, String params, String transaction, String errors) {
        return "<api-error-response><errors><errors type=\"array\"/>" + errors + "</errors><params>" + params
                + "</params>" + el("message", message) + transaction + "</api-error-response>";
    }

    private static String validationError(String code, String attribute, String message) {
        return "<transaction><errors type=\"array\"><error>" + el("code", code)
                + "<attribute type=\"symbol\">" + attribute + "</attribute>" + el("message", message)
                + "</error></errors></transaction>";
    }

    private static ResponseDefinition xml(int status, String body) {
        return aResponse().withStatus(status).withHeader("Content-Type", "application/xml; charset=utf-8")
                .withBody("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + body).build();
    }

    private static Element parse(String body) {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            Document document = factory.newDocumentBuilder()
                    .parse(new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)));
            return document.getDocumentElement();
        } catch (Exception e) {
            throw new IllegalArgumentException("not XML: " + body, e);
        }
    }

    private static String text(Element parent, String path) {
        Element at = parent;
        for (String name : path.split("/")) {
            Element next = null;
            NodeList children = at.getChildNodes();
            for (int i = 0; i < children.getLength(); i++) {
                Node child = children.item(i);
                if (child instanceof Element element && element.getTagName().equals(name)) {
                    next = element;
                    break;
                }
            }
            if (next == null) {
                return null;
            }
            at = next;
        }
        return at.getTextContent();
    }

    // ---- behaviour ----

    private ResponseDefinition sale(String merchantId, Element request) {
        String nonce = text(request, "paymentMethodNonce");
        String orderId = text(request, "orderId");
        String amount = text(request, "amount");
        if (nonce == null || amount == null || new BigDecimal(amount).signum() <= 0) {
            return xml(422, errorResponse("Amount is required.", "", "",
                    validationError("81502", "amount", "Amount is required.")));
        }
        Deque<Failure> queued = failures.get(nonce);
        Failure failure = queued == null ? null : queued.pollFirst();
        if (failure == Failure.ERROR_500_BEFORE_CHARGE) {
            return aResponse().withStatus(500).build();
        }
        if (failure == Failure.UNAUTHORIZED) {
            return aResponse().withStatus(401).build();
        }
        Map<String, Object> t = newTransaction(merchantId, "sale", amount, orderId);
        boolean submit = "true".equals(text(request, "options/submitForSettlement"));
        if (nonce.startsWith("fake-processor-declined")) {
            t.put("processor-response-code", "2000");
            t.put("processor-response-text", "Do Not Honor");
            t.put("processor-response-type", "soft_declined");
            status(t, "processor_declined");
        } else if (nonce.startsWith("fake-gateway-rejected-fraud")) {
            t.put("gateway-rejection-reason", "fraud");
            t.put("processor-response-code", null);
            t.put("processor-response-text", "Unknown ()");
            status(t, "gateway_rejected");
        } else {
            t.put("processor-authorization-code", "A" + id().substring(0, 5).toUpperCase());
            status(t, "authorized");
            if (nonce.startsWith("fake-settlement-pending")) {
                status(t, "settlement_pending");
            } else if (submit) {
                status(t, "submitted_for_settlement");
            }
        }
        transactions.put((String) t.get("id"), t);
        if (failure == Failure.ERROR_500_AFTER_CHARGE) {
            return aResponse().withStatus(500).build();
        }
        if (failure == Failure.LOSE_RESPONSE_AFTER_CHARGE) {
            return aResponse().withFault(Fault.EMPTY_RESPONSE).build();
        }
        String status = (String) t.get("status");
        if (status.equals("processor_declined") || status.equals("gateway_rejected")) {
            return xml(422, errorResponse(status.equals("processor_declined") ? "Do Not Honor"
                            : "Gateway Rejected: fraud", paramsOf(t), transactionXml(t), ""));
        }
        return xml(201, transactionXml(t));
    }

    private static String paramsOf(Map<String, Object> t) {
        return "<transaction>" + el("amount", t.get("amount")) + el("order-id", t.get("order-id"))
                + el("type", t.get("type")) + "</transaction>";
    }

    /** The new status, and its event in the history with the amount it is for. */
    private static void status(Map<String, Object> t, String status) {
        t.put("status", status);
        @SuppressWarnings("unchecked")
        List<String[]> history = (List<String[]>) t.get("status-history");
        history.add(new String[] {status, (String) t.get("amount")});
    }

    private Map<String, Object> newTransaction(String merchantId, String type, String amount, String orderId) {
        String currency = currencies.getOrDefault(merchantId, "EUR");
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("id", id());
        t.put("status", null);
        t.put("type", type);
        t.put("currency-iso-code", currency);
        t.put("amount", new BigDecimal(amount).setScale(java.util.Currency.getInstance(currency)
                .getDefaultFractionDigits()).toPlainString());
        t.put("merchant-account-id", merchantId + "_" + currency.toLowerCase());
        t.put("merchant-id", merchantId);
        t.put("order-id", orderId);
        t.put("created-at", now());
        t.put("updated-at", now());
        t.put("refunded-transaction-id", null);
        t.put("refund-ids", new ArrayList<String>());
        t.put("processor-response-code", "1000");
        t.put("processor-response-text", "Approved");
        t.put("processor-response-type", "approved");
        t.put("processor-authorization-code", null);
        t.put("processor-settlement-response-code", null);
        t.put("processor-settlement-response-text", null);
        t.put("gateway-rejection-reason", null);
        t.put("status-history", new ArrayList<String[]>());
        t.put("captures", 0);
        t.put("voids", 0);
        return t;
    }

    private ResponseDefinition refund(String merchantId, String saleId, Element request) {
        Map<String, Object> sale = transactions.get(saleId);
        if (sale == null || !merchantId.equals(sale.get("merchant-id"))) {
            return aResponse().withStatus(404).build();
        }
        BigDecimal amount = text(request, "amount") != null ? new BigDecimal(text(request, "amount"))
                : new BigDecimal((String) sale.get("amount"));
        if (!List.of("settled", "settling").contains(sale.get("status"))) {
            return xml(422, errorResponse("Cannot refund a transaction unless it is settled.", "",
                    "", validationError("91506", "base", "Cannot refund a transaction unless it is settled.")));
        }
        BigDecimal refunded = refundsOf(saleId).stream().map(r -> new BigDecimal((String) r.get("amount")))
                .reduce(BigDecimal.ZERO, BigDecimal::add);
        if (refunded.add(amount).compareTo(new BigDecimal((String) sale.get("amount"))) > 0) {
            return xml(422, errorResponse("Refund amount is too large.", "", "",
                    validationError("91521", "amount", "Refund amount is too large.")));
        }
        Map<String, Object> credit = newTransaction(merchantId, "credit", amount.toPlainString(),
                text(request, "orderId"));
        credit.put("refunded-transaction-id", saleId);
        status(credit, "submitted_for_settlement");
        transactions.put((String) credit.get("id"), credit);
        @SuppressWarnings("unchecked")
        List<String> refundIds = (List<String>) sale.get("refund-ids");
        refundIds.add((String) credit.get("id"));
        return xml(201, transactionXml(credit));
    }

    private ResponseDefinition submitForSettlement(String merchantId, String saleId, Element request) {
        Map<String, Object> sale = transactions.get(saleId);
        if (sale == null || !merchantId.equals(sale.get("merchant-id"))) {
            return aResponse().withStatus(404).build();
        }
        Deque<Failure> queued = captureFailures.get((String) sale.get("order-id"));
        Failure failure = queued == null ? null : queued.pollFirst();
        if (failure == Failure.ERROR_500_BEFORE_CHARGE) {
            return aResponse().withStatus(500).build();
        }
        if (failure == Failure.UNAUTHORIZED) {
            return aResponse().withStatus(401).build();
        }
        if (!"authorized".equals(sale.get("status"))) {
            return xml(422, errorResponse("Cannot submit for settlement unless status is authorized.", "", "",
                    validationError("91507", "base", "Cannot submit for settlement unless status is authorized.")));
        }
        String amount = request == null ? null : text(request, "amount");
        BigDecimal settled = amount != null ? new BigDecimal(amount) : new BigDecimal((String) sale.get("amount"));
        if (settled.compareTo(new BigDecimal((String) sale.get("amount"))) > 0) {
            return xml(422, errorResponse("Settlement amount is too large.", "", "",
                    validationError("91522", "amount", "Settlement amount is too large.")));
        }
        sale.put("amount", settled.setScale(new BigDecimal((String) sale.get("amount")).scale()).toPlainString());
        sale.put("captures", (Integer) sale.get("captures") + 1);
        sale.put("updated-at", now());
        status(sale, "submitted_for_settlement");
        if (failure == Failure.ERROR_500_AFTER_CHARGE) {
            return aResponse().withStatus(500).build();
        }
        if (failure == Failure.LOSE_RESPONSE_AFTER_CHARGE) {
            return aResponse().withFault(Fault.EMPTY_RESPONSE).build();
        }
        return xml(200, transactionXml(sale));
    }

    private ResponseDefinition voidSale(String merchantId, String saleId) {
        Map<String, Object> sale = transactions.get(saleId);
        if (sale == null || !merchantId.equals(sale.get("merchant-id"))) {
            return aResponse().withStatus(404).build();
        }
        if (!List.of("authorized", "submitted_for_settlement").contains(sale.get("status"))) {
            String message = "Transaction can only be voided if status is authorized, submitted_for_settlement, or"
                    + " - for PayPal - settlement_pending.";
            return xml(422, errorResponse(message, "", "", validationError("91504", "base", message)));
        }
        sale.put("voids", (Integer) sale.get("voids") + 1);
        sale.put("updated-at", now());
        status(sale, "voided");
        return xml(200, transactionXml(sale));
    }

    private ResponseDefinition searchIds(String merchantId, Element search) {
        String orderId = text(search, "order_id/is");
        StringBuilder ids = new StringBuilder();
        transactions.values().stream()
                .filter(t -> merchantId.equals(t.get("merchant-id")))
                .filter(t -> orderId == null || orderId.equals(t.get("order-id")))
                .forEach(t -> ids.append(el("item", t.get("id"))));
        return xml(200, "<search-results><page-size type=\"integer\">50</page-size><ids type=\"array\">" + ids
                + "</ids></search-results>");
    }

    private ResponseDefinition search(String merchantId, Element search) {
        List<String> wanted = new ArrayList<>();
        NodeList items = search.getElementsByTagName("item");
        for (int i = 0; i < items.getLength(); i++) {
            wanted.add(items.item(i).getTextContent());
        }
        StringBuilder found = new StringBuilder();
        int n = 0;
        for (String id : wanted) {
            Map<String, Object> t = transactions.get(id);
            if (t != null && merchantId.equals(t.get("merchant-id"))) {
                found.append(transactionXml(t));
                n++;
            }
        }
        return xml(200, "<credit-card-transactions type=\"collection\"><current-page-number type=\"integer\">1"
                + "</current-page-number><page-size type=\"integer\">50</page-size><total-items type=\"integer\">"
                + n + "</total-items>" + found + "</credit-card-transactions>");
    }

    private final class Behaviour implements ResponseDefinitionTransformerV2 {

        static final String NAME = "fake-braintree";

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
            synchronized (FakeBraintree.this) {
                String publicKey = authenticated(request.getHeader("Authorization"));
                if (publicKey == null) {
                    return aResponse().withStatus(401).build();
                }
                Matcher path = PATH.matcher(request.getUrl());
                if (!path.matches()) {
                    return aResponse().withStatus(404).build();
                }
                String merchantId = path.group(1);
                if (!merchantId.equals(merchantOfKey.get(publicKey))) {
                    return aResponse().withStatus(403).build();
                }
                String id = path.group(2);
                String action = path.group(3);
                String method = request.getMethod().getName();
                if (method.equals("GET") && id != null && action == null) {
                    Map<String, Object> t = transactions.get(id);
                    return t == null || !merchantId.equals(t.get("merchant-id")) ? aResponse().withStatus(404).build()
                            : xml(200, transactionXml(t));
                }
                if (method.equals("PUT") && id != null && "submit_for_settlement".equals(action)) {
                    String body = request.getBodyAsString();
                    return submitForSettlement(merchantId, id, body == null || body.isBlank() ? null : parse(body));
                }
                if (method.equals("PUT") && id != null && "void".equals(action)) {
                    return voidSale(merchantId, id);
                }
                if (!method.equals("POST")) {
                    return aResponse().withStatus(404).build();
                }
                Element body = parse(request.getBodyAsString());
                if (id == null) {
                    return "sale".equals(text(body, "type")) ? sale(merchantId, body)
                            : xml(422, errorResponse("Transaction type is invalid.", "", "",
                                    validationError("91523", "type", "Transaction type is invalid.")));
                }
                return switch (id + (action == null ? "" : "/" + action)) {
                    case "advanced_search_ids" -> searchIds(merchantId, body);
                    case "advanced_search" -> search(merchantId, body);
                    default -> "refund".equals(action) ? refund(merchantId, id, body)
                            : aResponse().withStatus(404).build();
                };
            }
        }

        private String authenticated(String header) {
            if (header == null || !header.startsWith("Basic ")) {
                return null;
            }
            String[] pair = new String(Base64.getDecoder().decode(header.substring(6).trim()),
                    StandardCharsets.UTF_8).split(":", 2);
            return pair.length == 2 && pair[1].equals(keys.get(pair[0])) ? pair[0] : null;
        }
    }
}
