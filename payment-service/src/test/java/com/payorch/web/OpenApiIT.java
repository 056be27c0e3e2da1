package com.payorch.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.disputes.DisputeReport;
import com.payorch.disputes.DisputeReports;
import com.payorch.gateway.Connector;
import com.payorch.testsupport.ApiTest;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpMethod;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.web.reactive.result.method.RequestMappingInfo;
import org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerMapping;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The served OpenAPI description is complete and true: it names exactly the `/v1` routes the application maps,
 * every operation but the gateway's webhook needs the bearer scheme, every problem response lists its codes, and a
 * real response of every endpoint (successes and problems) matches the schema the description gives for its
 * status. The schemas are checked by walking them ($ref, type, nullable, required, properties,
 * additionalProperties, items, enum, date-time).
 */
@TestPropertySource(properties = {
        "payments.merchants.docs.api-key=" + OpenApiIT.DOCS_KEY,
        // nothing listens there: deliveries fail, which is fine for reading their shape
        "payments.merchants.docs.webhook-url=http://127.0.0.1:9/hooks",
        "payments.merchants.docs.webhook-secret=whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD"
})
class OpenApiIT extends ApiTest {

    static final String DOCS_KEY = "sk_test_docs";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The application's and actuator's controller mappings: every route that is served. */
    @Autowired
    List<RequestMappingHandlerMapping> mappings;

    @Autowired
    List<Connector> connectors;

    @Autowired
    DisputeReports disputeReports;

    /**
     * One mapped pattern as the routes it serves: the webhook controller's `{connector}` patterns stand for each
     * plugged-in connector's endpoint of that shape (per merchant or not).
     */
    private Stream<String> served(String pattern) {
        if (pattern.equals("/v1/webhooks/{connector}")) {
            return connectors.stream().filter(c -> !c.webhooksPerMerchant()).map(c -> "/v1/webhooks/" + c.name());
        }
        if (pattern.equals("/v1/webhooks/{connector}/{merchantId}")) {
            return connectors.stream().filter(Connector::webhooksPerMerchant)
                    .map(c -> "/v1/webhooks/" + c.name() + "/{merchantId}");
        }
        return Stream.of(pattern);
    }

    private JsonNode description() {
        byte[] body = client.get().uri("/v3/api-docs").exchange()
                .expectStatus().isOk()
                .expectHeader().contentTypeCompatibleWith("application/json")
                .expectBody().returnResult().getResponseBody();
        return JSON.readTree(body);
    }

    @Test
    void theDescriptionAndSwaggerUiAreServedWithoutCredentials() {
        JsonNode description = description();
        assertThat(description.path("openapi").asText()).startsWith("3.");
        assertThat(description.path("components").path("securitySchemes").path("bearer").path("scheme").asText())
                .isEqualTo("bearer");
        EntityExchangeResult<byte[]> ui = client.get().uri("/swagger-ui.html").exchange()
                .expectBody().returnResult();
        if (ui.getStatus().is3xxRedirection()) {
            URI location = ui.getResponseHeaders().getLocation();
            ui = client.get().uri(location.isAbsolute() ? location.getPath() : location.toString()).exchange()
                    .expectBody().returnResult();
        }
        assertThat(ui.getStatus().value()).isEqualTo(200);
        assertThat(new String(ui.getResponseBody(), StandardCharsets.UTF_8)).containsIgnoringCase("swagger");
    }

    @Test
    void describesExactlyTheV1RoutesTheApplicationMaps() {
        Set<String> mapped = new TreeSet<>();
        for (RequestMappingInfo info : mappings.stream().flatMap(m -> m.getHandlerMethods().keySet().stream())
                .toList()) {
            info.getPatternsCondition().getPatterns().stream().map(p -> p.getPatternString())
                    .filter(p -> p.startsWith("/v1/"))
                    .flatMap(this::served)
                    .forEach(p -> info.getMethodsCondition().getMethods()
                            .forEach(m -> mapped.add(m.name() + " " + p)));
        }
        Set<String> described = new TreeSet<>();
        JsonNode paths = description().path("paths");
        for (String path : paths.propertyNames()) {
            for (String method : paths.path(path).propertyNames()) {
                if (Set.of("get", "post", "put", "patch", "delete").contains(method)) {
                    described.add(method.toUpperCase() + " " + path);
                }
            }
        }
        assertThat(mapped).hasSizeGreaterThanOrEqualTo(10);
        assertThat(described).isEqualTo(mapped);
    }

    @Test
    void everyOperationNamesItsSecurityItsParametersAndItsProblemCodes() {
        JsonNode paths = description().path("paths");
        for (String path : paths.propertyNames()) {
            for (String method : paths.path(path).propertyNames()) {
                JsonNode op = paths.path(path).path(method);
                String name = method + " " + path;
                if (path.startsWith("/v1/webhooks/")) {
                    assertThat(op.path("security").size()).as(name).isZero();
                } else {
                    assertThat(op.path("security").get(0).has("bearer")).as(name).isTrue();
                    assertThat(op.path("responses").has("401")).as(name).isTrue();
                }
                for (String segment : path.split("/")) {
                    if (segment.startsWith("{")) {
                        String parameter = segment.substring(1, segment.length() - 1);
                        assertThat(op.path("parameters").valueStream()
                                .anyMatch(p -> p.path("name").asText().equals(parameter)
                                        && p.path("in").asText().equals("path"))).as(name + " " + parameter).isTrue();
                    }
                }
                for (String status : op.path("responses").propertyNames()) {
                    JsonNode response = op.path("responses").path(status);
                    if (status.startsWith("4") || status.startsWith("5")) {
                        JsonNode media = response.path("content").path("application/problem+json");
                        assertThat(media.path("schema").path("$ref").asText()).as(name + " " + status)
                                .isEqualTo("#/components/schemas/Problem");
                        assertThat(media.path("examples").size()).as(name + " " + status).isPositive();
                        media.path("examples").forEach(example -> assertThat(
                                example.path("value").path("status").asInt()).as(name).isEqualTo(Integer.parseInt(status)));
                    } else if (response.path("content").has("text/plain")) {
                        // Adyen's notification endpoint must answer the plain text `[accepted]`.
                        assertThat(response.path("content").path("text/plain").path("schema").path("enum")
                                .valueStream().map(JsonNode::asText).toList()).as(name + " " + status)
                                .containsExactly("[accepted]");
                    } else {
                        assertThat(response.path("content").path("application/json").path("schema").has("$ref"))
                                .as(name + " " + status).isTrue();
                    }
                }
            }
        }
    }

    /** Holds (contract v3): the capture and cancel paths, the new resource fields, statuses and event types. */
    @Test
    void describesHolds() {
        JsonNode description = description();
        JsonNode schemas = description.path("components").path("schemas");
        assertThat(schemas.path("NewPayment").path("properties").path("captureMethod").path("enum").valueStream()
                .map(JsonNode::asText).toList()).containsExactly("automatic", "manual");
        JsonNode payment = schemas.path("Payment");
        assertThat(payment.path("required").valueStream().map(JsonNode::asText).toList()).contains("captureMethod",
                "amountCapturable", "amountCaptured", "authorizationExpiresAt", "cancelRequestedAt");
        assertThat(payment.path("properties").path("authorizationExpiresAt").path("nullable").asBoolean()).isTrue();
        assertThat(payment.path("properties").path("status").path("enum").valueStream().map(JsonNode::asText).toList())
                .containsExactlyInAnyOrder("PENDING", "PROCESSING", "REQUIRES_ACTION", "AUTHORIZED", "CAPTURING",
                        "COMPLETED", "FAILED", "CANCELLED");
        assertThat(schemas.path("HistoryEntry").path("properties").path("event").path("enum").valueStream()
                .map(JsonNode::asText).toList()).contains("AUTHORIZE", "CAPTURE", "CAPTURE_FAIL", "CANCEL");
        assertThat(schemas.path("Event").path("properties").path("type").path("enum").valueStream()
                .map(JsonNode::asText).toList()).contains("payment.authorized", "payment.capture_failed",
                "payment.cancelled", "booking.cancelled");
        assertThat(schemas.path("Capture").path("properties").path("amount").path("minimum").asLong()).isEqualTo(1);
        assertThat(schemas.path("Capture").path("additionalProperties").asBoolean(true)).isFalse();
        assertThat(schemas.path("Cancel").path("properties").path("reason").path("maxLength").asInt()).isEqualTo(200);
        assertThat(schemas.path("Cancel").path("additionalProperties").asBoolean(true)).isFalse();
        JsonNode listStatus = description.path("paths").path("/v1/payments").path("get").path("parameters")
                .valueStream().filter(p -> p.path("name").asText().equals("status")).findFirst().orElseThrow();
        assertThat(listStatus.path("schema").path("enum").size()).isEqualTo(8);
        for (String action : List.of("capture", "cancel")) {
            JsonNode op = description.path("paths").path("/v1/payments/{paymentId}/" + action).path("post");
            String name = "POST /v1/payments/{paymentId}/" + action;
            assertThat(op.path("parameters").valueStream().map(p -> p.path("in").asText() + " " + p.path("name")
                    .asText() + " " + p.path("required").asBoolean()).toList()).as(name)
                    .contains("path paymentId true", "header Idempotency-Key true", "header If-Match false");
            assertThat(op.path("requestBody").path("content").path("application/json").path("schema").path("$ref")
                    .asText()).as(name).isEqualTo("#/components/schemas/" + (action.equals("capture") ? "Capture"
                    : "Cancel"));
            assertThat(op.path("responses").path("200").path("content").path("application/json").path("schema")
                    .path("$ref").asText()).as(name).isEqualTo("#/components/schemas/Payment");
            assertThat(codes(op, "400")).as(name).contains("invalid_request", "idempotency_key_missing");
            assertThat(codes(op, "409")).as(name).contains("invalid_transition", "idempotency_request_in_progress");
            assertThat(codes(op, "412")).as(name).containsExactly("version_mismatch");
            assertThat(codes(op, "422")).as(name).containsExactly("idempotency_key_reused");
        }
    }

    private static List<String> codes(JsonNode operation, String status) {
        return operation.path("responses").path(status).path("content").path("application/problem+json")
                .path("examples").valueStream().map(e -> e.path("value").path("code").asText()).toList();
    }

    @Test
    void everyExampleMatchesItsSchema() {
        JsonNode description = description();
        List<String> errors = new ArrayList<>();
        JsonNode schemas = description.path("components").path("schemas");
        int examples = 0;
        for (String name : schemas.propertyNames()) {
            if (schemas.path(name).has("example")) {
                examples++;
                walk(description, schemas.path(name), schemas.path(name).path("example"), name + " example", errors);
            }
        }
        JsonNode problem = schemas.path("Problem");
        JsonNode paths = description.path("paths");
        for (String path : paths.propertyNames()) {
            for (String method : paths.path(path).propertyNames()) {
                for (JsonNode response : paths.path(path).path(method).path("responses")) {
                    for (JsonNode example : response.path("content").path("application/problem+json").path("examples")) {
                        examples++;
                        walk(description, problem, example.path("value"), method + " " + path + " example", errors);
                    }
                }
            }
        }
        assertThat(examples).isGreaterThan(50);
        assertThat(errors).isEmpty();
    }

    @Test
    void realResponsesOfEveryEndpointMatchTheirSchemas() {
        JsonNode description = description();
        List<String> errors = new ArrayList<>();
        String booking = unique("bk");
        String create = """
                {"bookingId": "%s", "amount": 12000, "currency": "JPY", "paymentMethod": "pm_card_ok",
                 "customerEmail": "guest@example.com", "description": "Room 101", "metadata": {"orderId": "1"}}"""
                .formatted(booking);
        JsonNode payment = check(description, errors, "post", "/v1/payments", "/v1/payments", DEMO_KEY,
                Map.of("Idempotency-Key", unique("key")), create, 201);
        String paymentId = payment.path("id").asText();
        check(description, errors, "post", "/v1/payments", "/v1/payments", DEMO_KEY,
                Map.of("Idempotency-Key", unique("key")), "{\"bookingId\": 1}", 400);
        check(description, errors, "post", "/v1/payments", "/v1/payments", DEMO_KEY,
                Map.of("Idempotency-Key", unique("key")), create, 409);
        check(description, errors, "get", "/v1/payments", "/v1/payments?bookingId=" + booking, DEMO_KEY, Map.of(),
                null, 200);
        check(description, errors, "get", "/v1/payments", "/v1/payments?limit=0", DEMO_KEY, Map.of(), null, 400);
        check(description, errors, "get", "/v1/payments", "/v1/payments", null, Map.of(), null, 401);
        check(description, errors, "get", "/v1/payments/{paymentId}", "/v1/payments/" + paymentId, DEMO_KEY,
                Map.of(), null, 200);
        check(description, errors, "get", "/v1/payments/{paymentId}", "/v1/payments/pay_unknown", DEMO_KEY,
                Map.of(), null, 404);
        check(description, errors, "post", "/v1/payments/{paymentId}/retry", "/v1/payments/" + paymentId + "/retry",
                DEMO_KEY, Map.of("Idempotency-Key", unique("key")), "{}", 409);
        sendWebhook(unique("msg"), webhookBody("payment.failed", paymentId, 12000, "JPY")).expectStatus().isOk();
        check(description, errors, "post", "/v1/payments/{paymentId}/retry", "/v1/payments/" + paymentId + "/retry",
                DEMO_KEY, Map.of("Idempotency-Key", unique("key"), "If-Match", "\"1\""), "{}", 412);
        check(description, errors, "post", "/v1/payments/{paymentId}/retry", "/v1/payments/" + paymentId + "/retry",
                DEMO_KEY, Map.of("Idempotency-Key", unique("key")), "{}", 200);
        check(description, errors, "get", "/v1/bookings/{bookingId}", "/v1/bookings/" + booking, DEMO_KEY, Map.of(),
                null, 200);
        check(description, errors, "get", "/v1/bookings/{bookingId}", "/v1/bookings/bk_unknown_x", DEMO_KEY,
                Map.of(), null, 404);
        JsonNode events = check(description, errors, "get", "/v1/events", "/v1/events?paymentId=" + paymentId,
                DEMO_KEY, Map.of(), null, 200);
        check(description, errors, "get", "/v1/events", "/v1/events?type=nope", DEMO_KEY, Map.of(), null, 400);
        String eventId = events.path("data").get(0).path("id").asText();
        check(description, errors, "get", "/v1/events/{eventId}/deliveries", "/v1/events/" + eventId + "/deliveries",
                DEMO_KEY, Map.of(), null, 200);
        check(description, errors, "get", "/v1/events/{eventId}/deliveries", "/v1/events/" + eventId
                + "/deliveries?limit=500", DEMO_KEY, Map.of(), null, 400);
        check(description, errors, "get", "/v1/events/{eventId}/deliveries", "/v1/events/evt_unknown/deliveries",
                DEMO_KEY, Map.of(), null, 404);
        check(description, errors, "post", "/v1/events/{eventId}/redeliver", "/v1/events/" + eventId + "/redeliver",
                DEMO_KEY, Map.of(), null, 400);
        String docsPayment = check(description, errors, "post", "/v1/payments", "/v1/payments", DOCS_KEY,
                Map.of("Idempotency-Key", unique("key")), create, 201).path("id").asText();
        String docsEvent = check(description, errors, "get", "/v1/events", "/v1/events?paymentId=" + docsPayment,
                DOCS_KEY, Map.of(), null, 200).path("data").get(0).path("id").asText();
        check(description, errors, "post", "/v1/events/{eventId}/redeliver", "/v1/events/" + docsEvent + "/redeliver",
                DOCS_KEY, Map.of(), null, 202);
        JsonNode deliveries = check(description, errors, "get", "/v1/events/{eventId}/deliveries",
                "/v1/events/" + docsEvent + "/deliveries", DOCS_KEY, Map.of(), null, 200);
        assertThat(deliveries.path("data").size()).isPositive();
        check(description, errors, "post", "/v1/events/{eventId}/redeliver", "/v1/events/" + docsEvent + "/redeliver",
                DEMO_KEY, Map.of(), null, 404);
        check(description, errors, "get", "/v1/sandbox/charges", "/v1/sandbox/charges?paymentId=" + paymentId,
                DEMO_KEY, Map.of(), null, 200);
        check(description, errors, "get", "/v1/sandbox/charges", "/v1/sandbox/charges", DEMO_KEY, Map.of(), null, 400);
        check(description, errors, "get", "/v1/sandbox/charges", "/v1/sandbox/charges?paymentId=pay_x", DEMO_KEY,
                Map.of(), null, 404);

        // Holds: a manual payment, authorised (by the sandbox's webhook, sent here by hand), captured in part; another
        // one cancelled; the refusals of both paths.
        String held = check(description, errors, "post", "/v1/payments", "/v1/payments", DEMO_KEY,
                Map.of("Idempotency-Key", unique("key")), create.replace(booking, unique("bk"))
                        .replace("\"metadata\"", "\"captureMethod\": \"manual\", \"metadata\""), 201)
                .path("id").asText();
        check(description, errors, "post", "/v1/payments/{paymentId}/capture", "/v1/payments/" + held + "/capture",
                DEMO_KEY, Map.of("Idempotency-Key", unique("key")), "{}", 409);
        // the sandbox authorises a hold when it settles it; its webhook (off here) is sent by hand
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).until(() -> count(
                "select count(*) from sandbox_charges where payment_id = $1 and status = 'authorized'", held) == 1);
        sendWebhook(unique("msg"), webhookBody("payment.authorized", held, 12000, "JPY")).expectStatus().isOk();
        check(description, errors, "post", "/v1/payments/{paymentId}/capture", "/v1/payments/" + held + "/capture",
                DEMO_KEY, Map.of("Idempotency-Key", unique("key")), "{\"amount\": 0}", 400);
        check(description, errors, "post", "/v1/payments/{paymentId}/capture", "/v1/payments/" + held + "/capture",
                DEMO_KEY, Map.of("Idempotency-Key", unique("key"), "If-Match", "\"1\""), "{}", 412);
        check(description, errors, "post", "/v1/payments/{paymentId}/capture", "/v1/payments/pay_unknown/capture",
                DEMO_KEY, Map.of("Idempotency-Key", unique("key")), "{}", 404);
        check(description, errors, "get", "/v1/payments/{paymentId}", "/v1/payments/" + held, DEMO_KEY,
                Map.of(), null, 200);
        check(description, errors, "post", "/v1/payments/{paymentId}/capture", "/v1/payments/" + held + "/capture",
                DEMO_KEY, Map.of("Idempotency-Key", unique("key")), "{\"amount\": 5000}", 200);
        check(description, errors, "get", "/v1/payments", "/v1/payments?status=CAPTURING", DEMO_KEY, Map.of(), null,
                200);
        check(description, errors, "get", "/v1/sandbox/charges", "/v1/sandbox/charges?paymentId=" + held, DEMO_KEY,
                Map.of(), null, 200);
        String released = check(description, errors, "post", "/v1/payments", "/v1/payments", DEMO_KEY,
                Map.of("Idempotency-Key", unique("key")), create.replace(booking, unique("bk"))
                        .replace("\"metadata\"", "\"captureMethod\": \"manual\", \"metadata\""), 201)
                .path("id").asText();
        check(description, errors, "post", "/v1/payments/{paymentId}/cancel", "/v1/payments/" + released + "/cancel",
                DEMO_KEY, Map.of("Idempotency-Key", unique("key")), "{\"reason\": 5}", 400);
        check(description, errors, "post", "/v1/payments/{paymentId}/cancel", "/v1/payments/" + released + "/cancel",
                DEMO_KEY, Map.of("Idempotency-Key", unique("key"), "If-Match", "\"9\""), "{}", 412);
        check(description, errors, "post", "/v1/payments/{paymentId}/cancel", "/v1/payments/" + released + "/cancel",
                DEMO_KEY, Map.of("Idempotency-Key", unique("key")), "{\"reason\": \"guest_cancelled\"}", 200);
        check(description, errors, "post", "/v1/payments/{paymentId}/cancel", "/v1/payments/" + paymentId + "/cancel",
                DEMO_KEY, Map.of("Idempotency-Key", unique("key")), "{}", 409);
        check(description, errors, "post", "/v1/payments/{paymentId}/cancel", "/v1/payments/pay_unknown/cancel",
                DEMO_KEY, Map.of("Idempotency-Key", unique("key")), "{}", 404);

        // Customer action: a create with a returnUrl, and the refusals of complete (a payment not waiting for its
        // customer, an unknown one, a bad body, a stale If-Match, no key).
        check(description, errors, "post", "/v1/payments", "/v1/payments", DEMO_KEY,
                Map.of("Idempotency-Key", unique("key")), create.replace(booking, unique("bk"))
                        .replace("\"metadata\"", "\"returnUrl\": \"https://hotel.example/paid\", \"metadata\""),
                201);
        check(description, errors, "post", "/v1/payments", "/v1/payments", DEMO_KEY,
                Map.of("Idempotency-Key", unique("key")), create.replace(booking, unique("bk"))
                        .replace("\"metadata\"", "\"returnUrl\": \"http://hotel.example/paid\", \"metadata\""),
                400);
        String waiting = check(description, errors, "post", "/v1/payments", "/v1/payments", DEMO_KEY,
                Map.of("Idempotency-Key", unique("key")), create.replace(booking, unique("bk"))
                        .replace("pm_card_ok", "pm_card_3ds")
                        .replace("\"metadata\"", "\"returnUrl\": \"https://hotel.example/paid\", \"metadata\""),
                201).path("id").asText();
        // the customer has not decided yet: the payment, still waiting, with its nextAction
        JsonNode stillWaiting = check(description, errors, "post", "/v1/payments/{paymentId}/complete",
                "/v1/payments/" + waiting + "/complete", DEMO_KEY, Map.of("Idempotency-Key", unique("key")), "{}",
                200);
        assertThat(stillWaiting.path("nextAction").path("type").asText()).isEqualTo("redirect");
        check(description, errors, "post", "/v1/payments/{paymentId}/complete", "/v1/payments/" + paymentId
                + "/complete", DEMO_KEY, Map.of("Idempotency-Key", unique("key")), "{}", 409);
        check(description, errors, "post", "/v1/payments/{paymentId}/complete", "/v1/payments/pay_unknown/complete",
                DEMO_KEY, Map.of("Idempotency-Key", unique("key")), "{}", 404);
        check(description, errors, "post", "/v1/payments/{paymentId}/complete", "/v1/payments/" + paymentId
                + "/complete", DEMO_KEY, Map.of("Idempotency-Key", unique("key")), "{\"redirectResult\": 1}", 400);
        check(description, errors, "post", "/v1/payments/{paymentId}/complete", "/v1/payments/" + paymentId
                + "/complete", DEMO_KEY, Map.of(), "{}", 400);
        check(description, errors, "post", "/v1/payments/{paymentId}/complete", "/v1/payments/" + paymentId
                + "/complete", DEMO_KEY, Map.of("Idempotency-Key", unique("key"), "If-Match", "\"999\""), "{}", 412);

        String webhook = webhookBody("payment.processing", paymentId, 12000, "JPY");
        String webhookId = unique("msg");
        EntityExchangeResult<byte[]> answered = client.post().uri("/v1/webhooks/sandbox")
                .headers(h -> h.addAll(com.payorch.testsupport.SignedWebhooks.sign(WEBHOOK_SECRET, webhookId,
                        java.time.Instant.now(), webhook)))
                .header("Content-Type", "application/json").bodyValue(webhook).exchange()
                .expectBody().returnResult();
        validate(description, errors, "post", "/v1/webhooks/sandbox", answered, 200);
        EntityExchangeResult<byte[]> unsigned = client.post().uri("/v1/webhooks/sandbox")
                .header("Content-Type", "application/json").bodyValue(webhook).exchange()
                .expectBody().returnResult();
        validate(description, errors, "post", "/v1/webhooks/sandbox", unsigned, 401);
        // The PSP endpoints of a merchant without that connector: 404, nothing recorded (their successes are checked
        // against real PSP payloads in StripeConnectorIT and AdyenConnectorIT).
        check(description, errors, "post", "/v1/webhooks/stripe/{merchantId}", "/v1/webhooks/stripe/demo", null,
                Map.of("Stripe-Signature", "t=1,v1=00"), "{}", 404);
        check(description, errors, "post", "/v1/webhooks/adyen/{merchantId}", "/v1/webhooks/adyen/demo", null,
                Map.of(), "{\"live\": \"false\", \"notificationItems\": []}", 404);

        // Disputes: a payment's (none, then one opened by a report), the dispute, the list and its refusals
        check(description, errors, "get", "/v1/payments/{paymentId}/disputes", "/v1/payments/" + paymentId
                + "/disputes", DEMO_KEY, Map.of(), null, 200);
        String disputeId = disputeReports.apply(new DisputeReport("sandbox", unique("rep"), unique("sbdp"), paymentId,
                1, DisputeReport.Kind.OPENED, 4000, "JPY", null, null, java.time.Instant.now()))
                .block(java.time.Duration.ofSeconds(10)).id();
        check(description, errors, "get", "/v1/disputes/{disputeId}", "/v1/disputes/" + disputeId, DEMO_KEY,
                Map.of(), null, 200);
        assertThat(check(description, errors, "get", "/v1/payments/{paymentId}/disputes", "/v1/payments/" + paymentId
                + "/disputes", DEMO_KEY, Map.of(), null, 200).path("data").size()).isEqualTo(1);
        assertThat(check(description, errors, "get", "/v1/payments/{paymentId}", "/v1/payments/" + paymentId,
                DEMO_KEY, Map.of(), null, 200).path("amountDisputed").asLong()).isEqualTo(4000);
        check(description, errors, "get", "/v1/payments/{paymentId}/disputes", "/v1/payments/pay_unknown/disputes",
                DEMO_KEY, Map.of(), null, 404);
        check(description, errors, "get", "/v1/disputes", "/v1/disputes?status=OPEN&limit=5", DEMO_KEY, Map.of(),
                null, 200);
        check(description, errors, "get", "/v1/disputes", "/v1/disputes?status=open", DEMO_KEY, Map.of(), null, 400);
        check(description, errors, "get", "/v1/disputes", "/v1/disputes", null, Map.of(), null, 401);
        check(description, errors, "get", "/v1/disputes/{disputeId}", "/v1/disputes/dp_unknown", DEMO_KEY,
                Map.of(), null, 404);

        assertThat(errors).isEmpty();
    }

    /**
     * Customer action (contract v3): `returnUrl` on create, `returnUrl` and `nextAction` on the payment, the status
     * REQUIRES_ACTION wherever statuses are listed, the event, the sandbox charge status and the complete operation.
     */
    @Test
    void describesCustomerAction() {
        JsonNode description = description();
        JsonNode schemas = description.path("components").path("schemas");
        JsonNode returnUrl = schemas.path("NewPayment").path("properties").path("returnUrl");
        assertThat(returnUrl.path("type").asText()).isEqualTo("string");
        assertThat(returnUrl.path("maxLength").asInt()).isEqualTo(2000);
        assertThat(returnUrl.path("description").asText()).contains("https", "localhost", "authentication_required");
        assertThat(schemas.path("NewPayment").path("required").valueStream().map(JsonNode::asText).toList())
                .doesNotContain("returnUrl");
        JsonNode payment = schemas.path("Payment");
        assertThat(payment.path("required").valueStream().map(JsonNode::asText).toList())
                .contains("returnUrl", "nextAction");
        assertThat(payment.path("properties").path("returnUrl").path("nullable").asBoolean()).isTrue();
        JsonNode nextAction = payment.path("properties").path("nextAction");
        assertThat(nextAction.path("nullable").asBoolean()).isTrue();
        assertThat(nextAction.path("required").valueStream().map(JsonNode::asText).toList())
                .containsExactly("type", "url");
        assertThat(nextAction.path("properties").path("type").path("enum").valueStream().map(JsonNode::asText)
                .toList()).containsExactly("redirect");
        assertThat(schemas.path("HistoryEntry").path("properties").path("to").path("enum").valueStream()
                .map(JsonNode::asText).toList()).contains("REQUIRES_ACTION");
        assertThat(schemas.path("HistoryEntry").path("properties").path("event").path("enum").valueStream()
                .map(JsonNode::asText).toList()).contains("REQUIRE_ACTION");
        assertThat(schemas.path("Attempt").path("properties").path("status").path("enum").valueStream()
                .map(JsonNode::asText).toList()).contains("REQUIRES_ACTION");
        assertThat(schemas.path("Event").path("properties").path("type").path("enum").valueStream()
                .map(JsonNode::asText).toList()).contains("payment.requires_action");
        assertThat(schemas.path("SandboxCharge").path("properties").path("status").path("enum").valueStream()
                .map(JsonNode::asText).toList()).contains("requires_action");
        JsonNode complete = schemas.path("Complete");
        assertThat(complete.path("additionalProperties").asBoolean(true)).isFalse();
        assertThat(complete.path("required").size()).isZero();
        assertThat(complete.path("properties").path("redirectResult").path("minLength").asInt()).isEqualTo(1);
        assertThat(complete.path("properties").path("redirectResult").path("maxLength").asInt()).isEqualTo(4096);

        JsonNode op = description.path("paths").path("/v1/payments/{paymentId}/complete").path("post");
        assertThat(op.path("operationId").asText()).isEqualTo("completePayment");
        assertThat(op.path("parameters").valueStream().map(p -> p.path("in").asText() + " " + p.path("name")
                .asText() + " " + p.path("required").asBoolean()).toList())
                .contains("path paymentId true", "header Idempotency-Key true", "header If-Match false");
        assertThat(op.path("requestBody").path("required").asBoolean(true)).isFalse();
        assertThat(op.path("requestBody").path("content").path("application/json").path("schema").path("$ref")
                .asText()).isEqualTo("#/components/schemas/Complete");
        assertThat(op.path("responses").path("200").path("content").path("application/json").path("schema")
                .path("$ref").asText()).isEqualTo("#/components/schemas/Payment");
        assertThat(op.path("responses").propertyNames()).contains("400", "401", "404", "409", "412", "422");
        assertThat(op.path("responses").path("409").path("description").asText()).contains("`invalid_transition`");
        assertThat(op.path("responses").path("400").path("description").asText())
                .contains("`invalid_request`", "`idempotency_key_missing`");
    }

    /**
     * Disputes (contract v3): the three reading operations, the resource, `amountDisputed` on the payment and the
     * `dispute.*` event types.
     */
    @Test
    void describesDisputes() {
        JsonNode description = description();
        JsonNode schemas = description.path("components").path("schemas");
        JsonNode dispute = schemas.path("Dispute");
        assertThat(dispute.path("required").valueStream().map(JsonNode::asText).toList())
                .containsExactlyInAnyOrder("id", "paymentId", "amount", "currency", "status", "reason", "connector",
                        "connectorReference", "evidenceDueBy", "version", "createdAt", "updatedAt");
        assertThat(dispute.path("properties").path("status").path("enum").valueStream().map(JsonNode::asText)
                .toList()).containsExactly("OPEN", "WON", "LOST");
        assertThat(dispute.path("properties").path("evidenceDueBy").path("nullable").asBoolean()).isTrue();
        assertThat(schemas.path("Payment").path("required").valueStream().map(JsonNode::asText).toList())
                .contains("amountDisputed");
        assertThat(schemas.path("Event").path("properties").path("type").path("enum").valueStream()
                .map(JsonNode::asText).toList()).contains("dispute.opened", "dispute.won", "dispute.lost");

        JsonNode paths = description.path("paths");
        assertThat(paths.path("/v1/disputes/{disputeId}").path("get").path("responses").propertyNames())
                .contains("200", "401", "404");
        assertThat(paths.path("/v1/payments/{paymentId}/disputes").path("get").path("responses").propertyNames())
                .contains("200", "401", "404");
        JsonNode list = paths.path("/v1/disputes").path("get");
        assertThat(list.path("parameters").valueStream().map(p -> p.path("in").asText() + " " + p.path("name")
                .asText()).toList()).containsExactly("query status", "query limit", "query starting_after");
        assertThat(list.path("responses").path("200").path("content").path("application/json").path("schema")
                .path("$ref").asText()).isEqualTo("#/components/schemas/DisputeList");
        assertThat(codes(list, "400")).containsExactly("invalid_request");
    }

    private JsonNode check(JsonNode description, List<String> errors, String method, String template, String uri,
                           String apiKey, Map<String, String> headers, String body, int expectedStatus) {
        var spec = client.method(HttpMethod.valueOf(method.toUpperCase())).uri(uri);
        if (apiKey != null) {
            spec.header("Authorization", "Bearer " + apiKey);
        }
        headers.forEach(spec::header);
        EntityExchangeResult<byte[]> result = body == null ? spec.exchange().expectBody().returnResult()
                : spec.header("Content-Type", "application/json").bodyValue(body).exchange().expectBody().returnResult();
        return validate(description, errors, method, template, result, expectedStatus);
    }

    private JsonNode validate(JsonNode description, List<String> errors, String method, String template,
                              EntityExchangeResult<byte[]> result, int expectedStatus) {
        String name = method.toUpperCase() + " " + template + " -> " + expectedStatus;
        assertThat(result.getStatus().value()).as(name + ": " + new String(result.getResponseBody() == null
                ? new byte[0] : result.getResponseBody(), StandardCharsets.UTF_8)).isEqualTo(expectedStatus);
        JsonNode response = description.path("paths").path(template).path(method).path("responses")
                .path(Integer.toString(expectedStatus));
        if (response.isMissingNode()) {
            errors.add(name + ": status not described");
            return JSON.missingNode();
        }
        String contentType = result.getResponseHeaders().getContentType().toString();
        String mediaType = contentType.startsWith("application/problem+json") ? "application/problem+json"
                : "application/json";
        JsonNode schema = response.path("content").path(mediaType).path("schema");
        if (schema.isMissingNode()) {
            errors.add(name + ": no schema for " + mediaType);
            return JSON.missingNode();
        }
        JsonNode body = JSON.readTree(result.getResponseBody());
        walk(description, schema, body, name + " $", errors);
        return body;
    }

    /** Checks `value` against `schema` (the subset of OpenAPI 3.0 schema keywords the description uses). */
    private static void walk(JsonNode root, JsonNode schema, JsonNode value, String at, List<String> errors) {
        if (schema.has("$ref")) {
            String name = schema.path("$ref").asText().substring("#/components/schemas/".length());
            JsonNode target = root.path("components").path("schemas").path(name);
            if (target.isMissingNode()) {
                errors.add(at + ": unknown schema " + name);
                return;
            }
            walk(root, target, value, at, errors);
            return;
        }
        if (value.isNull()) {
            if (!schema.path("nullable").asBoolean(false)) {
                errors.add(at + ": null where the schema is not nullable");
            }
            return;
        }
        String type = schema.path("type").asText("");
        switch (type) {
            case "object" -> {
                if (!value.isObject()) {
                    errors.add(at + ": expected an object, got " + value);
                    return;
                }
                schema.path("required").forEach(required -> {
                    if (!value.has(required.asText())) {
                        errors.add(at + ": missing required member " + required.asText());
                    }
                });
                JsonNode properties = schema.path("properties");
                JsonNode additional = schema.path("additionalProperties");
                for (String member : value.propertyNames()) {
                    if (properties.has(member)) {
                        walk(root, properties.path(member), value.path(member), at + "." + member, errors);
                    } else if (additional.isBoolean() && !additional.asBoolean()) {
                        errors.add(at + ": member " + member + " not allowed");
                    } else if (additional.isObject()) {
                        walk(root, additional, value.path(member), at + "." + member, errors);
                    } else if (properties.size() > 0) {
                        errors.add(at + ": member " + member + " not described");
                    }
                }
            }
            case "array" -> {
                if (!value.isArray()) {
                    errors.add(at + ": expected an array");
                    return;
                }
                for (int i = 0; i < value.size(); i++) {
                    walk(root, schema.path("items"), value.get(i), at + "[" + i + "]", errors);
                }
            }
            case "string" -> {
                if (!value.isTextual()) {
                    errors.add(at + ": expected a string, got " + value);
                    return;
                }
                if (schema.has("enum") && schema.path("enum").valueStream()
                        .noneMatch(e -> e.asText().equals(value.asText()))) {
                    errors.add(at + ": " + value + " not in " + schema.path("enum"));
                }
                if ("date-time".equals(schema.path("format").asText())) {
                    try {
                        OffsetDateTime.parse(value.asText());
                    } catch (RuntimeException e) {
                        errors.add(at + ": not a date-time: " + value);
                    }
                }
            }
            case "integer" -> {
                if (!value.isIntegralNumber()) {
                    errors.add(at + ": expected an integer, got " + value);
                }
            }
            case "boolean" -> {
                if (!value.isBoolean()) {
                    errors.add(at + ": expected a boolean, got " + value);
                }
            }
            default -> errors.add(at + ": schema without a type: " + schema);
        }
    }
}
