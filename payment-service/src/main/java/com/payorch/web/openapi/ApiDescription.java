package com.payorch.web.openapi;

import com.payorch.events.EventType;
import com.payorch.gateway.CaptureMethod;
import com.payorch.gateway.Connector;
import com.payorch.gateway.SignatureFailure;
import com.payorch.gateway.WebhookEndpointDescription;
import com.payorch.payments.AttemptStatus;
import com.payorch.statemachine.DisputeStatus;
import com.payorch.statemachine.PaymentEvent;
import com.payorch.statemachine.PaymentStatus;
import com.payorch.web.ProblemCode;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.Paths;
import io.swagger.v3.oas.models.examples.Example;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.media.ArraySchema;
import io.swagger.v3.oas.models.media.BooleanSchema;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MapSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.parameters.HeaderParameter;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.parameters.PathParameter;
import io.swagger.v3.oas.models.parameters.QueryParameter;
import io.swagger.v3.oas.models.parameters.RequestBody;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.stereotype.Component;

/**
 * The OpenAPI description served at `/v3/api-docs`, written out by hand: the controllers read raw bodies (strict
 * JSON, the 64 KiB limit, the idempotency fingerprint) so springdoc cannot infer their schemas. It replaces what
 * springdoc found; `OpenApiIT` checks that it names exactly the `/v1` routes the application maps and that real
 * responses of every endpoint match their schemas.
 */
@Component
public class ApiDescription implements OpenApiCustomizer {

    private static final String BEARER = "bearer";
    private static final String JSON = "application/json";
    private static final String PROBLEM_JSON = "application/problem+json";
    private static final List<String> EVENT_TYPES = Arrays.stream(EventType.values()).map(EventType::value).toList();

    private final List<Connector> connectors;

    public ApiDescription(List<Connector> connectors) {
        this.connectors = connectors;
    }

    @Override
    public void customise(OpenAPI openApi) {
        openApi.info(new Info().title("Payment orchestration service").version("v3")
                .description("Payments for bookings, charged at most once, with their life cycle, events and merchant"
                        + " webhooks. Every error is an RFC 9457 problem (`application/problem+json`) with a stable"
                        + " `code`. The contract in words: docs/api.md."));
        openApi.components(components());
        Paths paths = paths();
        connectors.stream().sorted(Comparator.comparing(Connector::name))
                .forEach(connector -> paths.addPathItem(webhookPath(connector), webhookEndpoint(connector)));
        openApi.paths(paths);
    }

    private static Components components() {
        Map<String, Schema> schemas = new LinkedHashMap<>();
        schemas.put("Problem", object(Map.of(
                        "type", string("`urn:payorch:problem:<code>`"),
                        "title", string("a short fixed text per code"),
                        "status", integer("the HTTP status"),
                        "detail", string("what went wrong with this request; names the offending field"),
                        "instance", string("the request path"),
                        "code", string("the stable, machine-readable code")._enum(Arrays.stream(ProblemCode.values())
                                .map(ProblemCode::code).toList())),
                List.of("type", "title", "status", "detail", "code")));
        schemas.put("HistoryEntry", object(ordered(
                        "from", nullable(status()), "to", status(),
                        "event", string("the state machine event")._enum(Arrays.stream(PaymentEvent.values())
                                .map(Enum::name).toList()),
                        "source", string(null)._enum(List.of("api", "webhook", "recovery", "reconciler")),
                        "sourceId", nullable(string("idempotency key or webhook id")), "at", timestamp()),
                List.of("from", "to", "event", "source", "sourceId", "at")));
        schemas.put("Attempt", object(ordered(
                        "number", integer("1 for the first submission, one more per retry"),
                        "connector", string("where the attempt went, e.g. `sandbox`"),
                        "reference", nullable(string("the connector's id of the charge, e.g. `ch_…`")),
                        "status", string(null)._enum(Arrays.stream(AttemptStatus.values()).map(Enum::name)
                                .toList()),
                        "failureReason", nullable(string(null)), "createdAt", timestamp()),
                List.of("number", "connector", "reference", "status", "failureReason", "createdAt")));
        schemas.put("Metadata", new MapSchema().additionalProperties(new StringSchema().maxLength(500))
                .maxProperties(20).description("the merchant's own key-value pairs: at most 20 keys of 1-40"
                        + " characters of `[A-Za-z0-9_.-]`, string values of at most 500 characters"));
        schemas.put("Payment", object(ordered(
                        "id", string("`pay_…`"), "bookingId", string(null), "amount", long64("in the currency's minor unit"),
                        "currency", string("ISO 4217, upper case"), "status", status(),
                        "version", long64("starts at 1, one more per change; also the ETag"),
                        "paymentMethod", string(null), "failureReason", nullable(string("e.g. `card_declined`")),
                        "attempt", integer("the current attempt's number"), "connector", string(null),
                        "connectorReference", nullable(string("the current attempt's reference")),
                        "attempts", new ArraySchema().items(ref("Attempt")),
                        "amountRefunded", long64("the sum of the payment's SUCCEEDED refunds"),
                        "amountDisputed", long64("the sum of the payment's OPEN and LOST disputes; not refundable"),
                        "captureMethod", captureMethod(),
                        "amountCapturable", long64("what a capture may take now: the amount while AUTHORIZED (and no"
                                + " cancel recorded), else 0"),
                        "amountCaptured", long64("the money taken: the captured part of a hold, the whole amount of"
                                + " a COMPLETED automatic payment; refunds are limited by it"),
                        "authorizationExpiresAt", nullable(timestamp("when the hold lapses; only while AUTHORIZED")),
                        "cancelRequestedAt", nullable(timestamp("when a cancel was accepted; the payment becomes"
                                + " CANCELLED once the connector confirms the release")),
                        "returnUrl", nullable(string("where the connector sends the customer back after an action;"
                                + " as given at create")),
                        "nextAction", nextAction(),
                        "createdAt", timestamp(), "updatedAt", timestamp(), "metadata", ref("Metadata"),
                        "history", new ArraySchema().items(ref("HistoryEntry"))),
                List.of("id", "bookingId", "amount", "currency", "status", "version", "paymentMethod", "failureReason",
                        "attempt", "connector", "connectorReference", "attempts", "amountRefunded", "amountDisputed",
                        "captureMethod", "amountCapturable", "amountCaptured", "authorizationExpiresAt",
                        "cancelRequestedAt", "returnUrl", "nextAction", "createdAt", "updatedAt", "metadata", "history")));
        schemas.get("Payment").example(payment());
        schemas.put("PaymentList", page("Payment"));
        Schema<?> create = object(ordered(
                        "bookingId", new StringSchema().pattern("^[A-Za-z0-9_-]{1,64}$"),
                        "amount", new IntegerSchema().format("int64").minimum(BigDecimal.ONE)
                                .maximum(new BigDecimal("100000000000")),
                        "currency", new StringSchema().pattern("^[A-Z]{3}$").description("ISO 4217 code known to the JVM"),
                        "paymentMethod", new StringSchema().minLength(1).maxLength(64).description("a gateway token, e.g. `pm_card_ok`"),
                        "customerEmail", new StringSchema().format("email").maxLength(254),
                        "description", new StringSchema().maxLength(500),
                        "metadata", ref("Metadata"),
                        "captureMethod", captureMethod().description("`automatic` (default): charged at once;"
                                + " `manual`: only authorised (a hold), captured or cancelled later"),
                        "returnUrl", new StringSchema().format("uri").minLength(1).maxLength(2000)
                                .description("where the customer comes back after a 3-D Secure or redirect step: an"
                                        + " absolute https URL (http only to localhost, 127.0.0.1 or [::1]), no user"
                                        + " information, no spaces or control characters. Without it a payment whose"
                                        + " connector asks for the customer is FAILED `authentication_required`")),
                List.of("bookingId", "amount", "currency", "paymentMethod"));
        create.additionalProperties(false);
        create.example(Map.of("bookingId", "bk_1001", "amount", 12000, "currency", "JPY", "paymentMethod", "pm_card_ok",
                "customerEmail", "guest@example.com", "description", "Room 101, 2 nights",
                "metadata", Map.of("orderId", "1001")));
        schemas.put("NewPayment", create);
        Schema<?> capture = object(ordered(
                        "amount", new IntegerSchema().format("int64").minimum(BigDecimal.ONE)
                                .maximum(new BigDecimal("100000000000"))
                                .description("at most `amountCapturable`; default: all of it. Less is a partial"
                                        + " capture: the rest is released")),
                List.of());
        capture.additionalProperties(false);
        capture.example(Map.of("amount", 8000));
        capture.description("`{}`, `{\"amount\": n}` or no body");
        schemas.put("Capture", capture);
        Schema<?> cancel = object(ordered(
                        "reason", new StringSchema().maxLength(200).description("no control characters")),
                List.of());
        cancel.additionalProperties(false);
        cancel.example(Map.of("reason", "guest_cancelled"));
        cancel.description("`{}`, `{\"reason\": \"…\"}` or no body");
        schemas.put("Cancel", cancel);
        Schema<?> complete = object(ordered(
                        "redirectResult", new StringSchema().minLength(1).maxLength(4096)
                                .description("what the customer's browser brought back from the connector's page"
                                        + " (Adyen's `redirectResult`), passed on as it is; no control characters."
                                        + " Absent: the service asks the connector for the outcome")),
                List.of());
        complete.additionalProperties(false);
        complete.example(Map.of("redirectResult", "X6XtfGC3!Y..."));
        complete.description("`{}`, `{\"redirectResult\": \"…\"}` or no body");
        schemas.put("Complete", complete);
        schemas.put("EmptyObject", new ObjectSchema().additionalProperties(false).description("`{}` (or no body)"));
        schemas.put("Booking", object(ordered(
                        "id", string(null),
                        "status", string(null)._enum(List.of("AWAITING_PAYMENT", "ACTIVE", "CANCELLED")),
                        "paymentId", nullable(string("the payment that activated it")), "activatedAt", nullable(timestamp()),
                        "cancelledAt", nullable(timestamp())),
                List.of("id", "status", "paymentId", "activatedAt", "cancelledAt")));
        schemas.put("Refund", object(ordered(
                        "id", string("`re_…`"), "paymentId", string("`pay_…`"),
                        "amount", long64("in the currency's minor unit"), "currency", string("the payment's currency"),
                        "status", string(null)._enum(List.of("PENDING", "SUCCEEDED", "FAILED")),
                        "reason", nullable(string("the client's reason, or `orphaned_charge`")),
                        "failureReason", nullable(string("e.g. `refund_declined`")),
                        "connector", string("the connector of the attempt that was charged"),
                        "connectorReference", nullable(string("the connector's id of the refund")),
                        "version", long64("starts at 1, one more per change"),
                        "createdAt", timestamp(), "updatedAt", timestamp()),
                List.of("id", "paymentId", "amount", "currency", "status", "reason", "failureReason", "connector",
                        "connectorReference", "version", "createdAt", "updatedAt")));
        schemas.get("Refund").example(ordered2("id", "re_7hQ2mX9pL4cR1tY0aB8nK3sW", "paymentId",
                "pay_3kTq9ZLmW0bXc7RfA2yHn5Dv", "amount", 5000, "currency", "JPY", "status", "PENDING",
                "reason", "requested_by_customer", "failureReason", null, "connector", "sandbox",
                "connectorReference", "rf_9sKd2LmQ0pX7cV4bN1zA8yTe", "version", 1,
                "createdAt", "2026-11-30T02:20:01.112Z", "updatedAt", "2026-11-30T02:20:01.112Z"));
        schemas.put("RefundList", page("Refund"));
        Schema<?> newRefund = object(ordered(
                        "amount", new IntegerSchema().format("int64").minimum(BigDecimal.ONE)
                                .maximum(new BigDecimal("100000000000"))
                                .description("default: everything still refundable"),
                        "reason", new StringSchema().maxLength(200).description("no control characters")),
                List.of());
        newRefund.additionalProperties(false);
        newRefund.example(Map.of("amount", 5000, "reason", "requested_by_customer"));
        schemas.put("NewRefund", newRefund);
        schemas.put("Dispute", object(ordered(
                        "id", string("`dp_…`"), "paymentId", string("`pay_…`"),
                        "amount", long64("the disputed money, in the currency's minor unit"),
                        "currency", string("the payment's currency"),
                        "status", string("OPEN until the connector reports the outcome; LOST may become WON"
                                + " (chargeback reversed) and WON may become LOST (second chargeback)")
                                ._enum(Arrays.stream(DisputeStatus.values()).map(Enum::name).toList()),
                        "reason", nullable(string("the connector's reason, as it reports it")),
                        "connector", string("the connector that reported it"),
                        "connectorReference", string("the connector's id of the dispute"),
                        "evidenceDueBy", nullable(timestamp("when evidence must reach the connector, if it says")),
                        "version", long64("starts at 1, one more per change"),
                        "createdAt", timestamp(), "updatedAt", timestamp()),
                List.of("id", "paymentId", "amount", "currency", "status", "reason", "connector",
                        "connectorReference", "evidenceDueBy", "version", "createdAt", "updatedAt")));
        schemas.get("Dispute").example(ordered2("id", "dp_4Lm8QzT1pX6cV0bN3yA7kR2s", "paymentId",
                "pay_3kTq9ZLmW0bXc7RfA2yHn5Dv", "amount", 12000, "currency", "JPY", "status", "OPEN",
                "reason", "fraudulent", "connector", "stripe", "connectorReference", "dp_1QxYz2AbCdEfGhIj",
                "evidenceDueBy", "2026-12-14T23:59:59.000Z", "version", 1,
                "createdAt", "2026-12-01T09:12:44.501Z", "updatedAt", "2026-12-01T09:12:44.501Z"));
        schemas.put("DisputeList", page("Dispute"));
        schemas.put("PaymentDisputes", object(ordered("data", new ArraySchema().items(ref("Dispute"))),
                List.of("data")));
        schemas.put("Event", object(ordered(
                        "id", string("`evt_…`"), "type", string(null)._enum(EVENT_TYPES),
                        "paymentId", nullable(string(null)), "bookingId", nullable(string(null)), "createdAt", timestamp(),
                        "data", new ObjectSchema().description("per type: see docs/api.md; payment events carry"
                                + " `status`, `version`, `amount`, `currency`, `attempt`, `metadata`")),
                List.of("id", "type", "paymentId", "bookingId", "createdAt", "data")));
        schemas.get("Event").example(ordered2("id", "evt_Qm1xV8pL2cR7tY0aB4nK9sWe", "type", "payment.processing",
                "paymentId", "pay_3kTq9ZLmW0bXc7RfA2yHn5Dv", "bookingId", "bk_1001",
                "createdAt", "2026-11-30T02:14:31.245Z", "data", ordered2("status", "PROCESSING", "version", 2,
                        "amount", 12000, "currency", "JPY", "attempt", 1, "metadata", Map.of("orderId", "1001"))));
        schemas.put("EventList", page("Event"));
        schemas.put("Delivery", object(ordered(
                        "id", string("`wd_…`"), "attempt", integer(null),
                        "status", string(null)._enum(List.of("succeeded", "failed", "pending")),
                        "responseStatus", nullable(integer("the receiver's HTTP status, when it answered")),
                        "error", nullable(string("why the attempt failed")), "at", timestamp()),
                List.of("id", "attempt", "status", "responseStatus", "error", "at")));
        schemas.get("Delivery").example(ordered2("id", "wd_8fK2mQ0pLz7RtY1aB3nC5sVe", "attempt", 1,
                "status", "failed", "responseStatus", 500, "error", "HTTP 500", "at", "2026-11-30T02:14:32.004Z"));
        schemas.put("DeliveryList", page("Delivery"));
        schemas.put("SandboxCharge", object(ordered(
                        "id", string("`ch_…`"), "paymentId", string(null), "attempt", integer(null),
                        "amount", long64(null), "currency", string(null),
                        "status", string("a hold (`captureMethod` `manual`) is `authorized` when it settles, then"
                                + " `capturing`, `succeeded` or `capture_failed`, or `cancelled`; a charge made with"
                                + " `pm_card_3ds` or `pm_card_3ds_declined` and a `returnUrl` is `requires_action`"
                                + " until the customer decides on the sandbox's page")._enum(List.of(
                                "processing", "requires_action", "authorized", "capturing", "capture_failed",
                                "succeeded", "failed", "cancelled")),
                        "failureReason", nullable(string("e.g. `card_declined`")),
                        "captureMethod", captureMethod(),
                        "captures", integer("how many captures of the hold were requested"),
                        "amountCaptured", nullable(long64("what a capture of the hold took, once it settled"))),
                List.of("id", "paymentId", "attempt", "amount", "currency", "status", "failureReason")));
        Schema<?> charges = object(ordered("data", new ArraySchema().items(ref("SandboxCharge"))), List.of("data"));
        schemas.put("SandboxChargeList", charges);
        schemas.put("SandboxWebhook", object(ordered(
                        "type", string(null)._enum(List.of("payment.processing", "payment.succeeded", "payment.failed",
                                "payment.authorized", "payment.captured", "payment.capture_failed",
                                "payment.cancelled")),
                        "data", object(ordered("paymentId", string(null), "chargeId", string("`ch_…`, required"),
                                        "amount", long64(null), "currency", string(null),
                                        "failureReason", string("on payment.failed and"
                                                + " payment.capture_failed")),
                                List.of("paymentId", "chargeId", "amount", "currency"))),
                List.of("type", "data")));
        schemas.put("WebhookAnswer", object(ordered("status", string(null)._enum(
                List.of("applied", "duplicate", "ignored", "rejected"))), List.of("status")));
        schemas.get("WebhookAnswer").example(Map.of("status", "applied"));
        schemas.get("Booking").example(ordered2("id", "bk_1001", "status", "ACTIVE",
                "paymentId", "pay_3kTq9ZLmW0bXc7RfA2yHn5Dv", "activatedAt", "2026-11-30T02:14:32.311Z",
                "cancelledAt", null));
        return new Components().schemas(schemas).securitySchemes(Map.of(BEARER, new SecurityScheme()
                .type(SecurityScheme.Type.HTTP).scheme("bearer")
                .description("`Authorization: Bearer <api-key>`; each key belongs to one merchant")));
    }

    private static Paths paths() {
        Paths paths = new Paths();
        paths.addPathItem("/v1/payments", new PathItem()
                .post(op("createPayment", "Create a payment and submit it to the gateway",
                        "Idempotent with `Idempotency-Key`: a retry gets the first response back (`Idempotent-Replayed:"
                                + " true`). The booking guard refuses a second live payment for a booking.")
                        .addParametersItem(idempotencyKey())
                        .requestBody(body("NewPayment", true))
                        .responses(responses(true)
                                .addApiResponse("201", json("The payment (PENDING or PROCESSING)", "Payment")
                                        .addHeaderObject("Location", header("`/v1/payments/{id}`"))
                                        .addHeaderObject("ETag", header("`\"<version>\"`"))
                                        .addHeaderObject("Idempotent-Replayed", header("`true` on a replay")))
                                .addApiResponse("400", problem(ProblemCode.INVALID_REQUEST,
                                        ProblemCode.IDEMPOTENCY_KEY_MISSING, ProblemCode.IDEMPOTENCY_KEY_INVALID))
                                .addApiResponse("409", problem(ProblemCode.BOOKING_PAYMENT_IN_PROGRESS,
                                        ProblemCode.BOOKING_ALREADY_PAID, ProblemCode.BOOKING_CANCELLED,
                                        ProblemCode.IDEMPOTENCY_REQUEST_IN_PROGRESS,
                                        ProblemCode.CONCURRENT_MODIFICATION))
                                .addApiResponse("413", problem(ProblemCode.PAYLOAD_TOO_LARGE))
                                .addApiResponse("415", problem(ProblemCode.UNSUPPORTED_MEDIA_TYPE))
                                .addApiResponse("422", problem(ProblemCode.IDEMPOTENCY_KEY_REUSED))
                                .addApiResponse("502", problem(ProblemCode.GATEWAY_ERROR))))
                .get(op("listPayments", "List the merchant's payments, newest first",
                        "Keyset pages: pass the last id of a page as `starting_after` for the next.")
                        .addParametersItem(query("bookingId", "only this booking's payments",
                                new StringSchema().pattern("^[A-Za-z0-9_-]{1,64}$")))
                        .addParametersItem(query("status", "only payments in this status", status()))
                        .addParametersItem(query("createdAfter", "created strictly after (RFC 3339)", timestamp()))
                        .addParametersItem(query("createdBefore", "created strictly before (RFC 3339)", timestamp()))
                        .addParametersItem(limit())
                        .addParametersItem(startingAfter("a payment id"))
                        .responses(responses(true)
                                .addApiResponse("200", json("A page of payments", "PaymentList"))
                                .addApiResponse("400", problem(ProblemCode.INVALID_REQUEST)))));
        paths.addPathItem("/v1/payments/{paymentId}", new PathItem()
                .get(op("getPayment", "A payment with its history and attempts", null)
                        .addParametersItem(path("paymentId", "`pay_…`"))
                        .responses(responses(true)
                                .addApiResponse("200", json("The payment", "Payment")
                                        .addHeaderObject("ETag", header("`\"<version>\"`")))
                                .addApiResponse("404", problem(ProblemCode.NOT_FOUND)))));
        paths.addPathItem("/v1/payments/{paymentId}/retry", new PathItem()
                .post(op("retryPayment", "Retry a FAILED payment: a new attempt",
                        "Idempotent with `Idempotency-Key`; `If-Match` makes it conditional on the version.")
                        .addParametersItem(path("paymentId", "`pay_…`"))
                        .addParametersItem(idempotencyKey())
                        .addParametersItem(ifMatch())
                        .requestBody(body("EmptyObject", false))
                        .responses(responses(true)
                                .addApiResponse("200", json("The payment, PENDING again or already PROCESSING", "Payment")
                                        .addHeaderObject("ETag", header("`\"<version>\"`"))
                                        .addHeaderObject("Idempotent-Replayed", header("`true` on a replay")))
                                .addApiResponse("400", problem(ProblemCode.INVALID_REQUEST,
                                        ProblemCode.IDEMPOTENCY_KEY_MISSING, ProblemCode.IDEMPOTENCY_KEY_INVALID))
                                .addApiResponse("404", problem(ProblemCode.NOT_FOUND))
                                .addApiResponse("409", problem(ProblemCode.INVALID_TRANSITION,
                                        ProblemCode.BOOKING_PAYMENT_IN_PROGRESS, ProblemCode.BOOKING_ALREADY_PAID,
                                        ProblemCode.BOOKING_CANCELLED,
                                        ProblemCode.IDEMPOTENCY_REQUEST_IN_PROGRESS, ProblemCode.CONCURRENT_MODIFICATION))
                                .addApiResponse("412", problem(ProblemCode.VERSION_MISMATCH))
                                .addApiResponse("413", problem(ProblemCode.PAYLOAD_TOO_LARGE))
                                .addApiResponse("422", problem(ProblemCode.IDEMPOTENCY_KEY_REUSED))
                                .addApiResponse("502", problem(ProblemCode.GATEWAY_ERROR)))));
        paths.addPathItem("/v1/payments/{paymentId}/capture", new PathItem()
                .post(actionOnAPayment("capturePayment", "Capture an AUTHORIZED hold, in full or in part",
                        "Idempotent with `Idempotency-Key`; `If-Match` makes it conditional on the version. The"
                                + " capture is recorded (CAPTURING) before the connector hears of it, under its own"
                                + " connector key (`<attempt key>-capture-<n>`); COMPLETED once the connector"
                                + " confirms. A partial capture releases the rest. A refused request stores nothing.",
                        "Capture", "The payment, CAPTURING or already COMPLETED")));
        paths.addPathItem("/v1/payments/{paymentId}/cancel", new PathItem()
                .post(actionOnAPayment("cancelPayment",
                        "Release a hold: an AUTHORIZED payment, or a manual one not authorised yet",
                        "Idempotent with `Idempotency-Key`; `If-Match` makes it conditional on the version. The"
                                + " cancel is recorded (`cancelRequestedAt`; no capture may follow) before the"
                                + " connector hears of it, under its own connector key (`<attempt key>-cancel`);"
                                + " the payment is CANCELLED once the connector confirms, and its booking cancelled"
                                + " if the hold had activated it. COMPLETED or automatic: 409 (refund instead).",
                        "Cancel", "The payment: CANCELLED, or still in its status with"
                        + " `cancelRequestedAt` set until the connector confirms")));
        paths.addPathItem("/v1/payments/{paymentId}/complete", new PathItem()
                .post(actionOnAPayment("completePayment", "Finish a payment that waits for its customer (REQUIRES_ACTION)",
                        "For the customer's return to the merchant's `returnUrl`: with `redirectResult` (what the"
                                + " browser brought back) it is passed to the connector (Adyen `/payments/details`);"
                                + " with `{}` the service asks the connector for the outcome (sandbox, Stripe). The"
                                + " answer is applied like a webhook: PROCESSING, AUTHORIZED, COMPLETED or FAILED;"
                                + " a connector that has no outcome yet leaves it REQUIRES_ACTION (its webhook"
                                + " settles it). Idempotent with `Idempotency-Key`; `If-Match` makes it conditional"
                                + " on the version. Not REQUIRES_ACTION: 409 `invalid_transition`, nothing stored.",
                        "Complete", "The payment with the outcome applied, or still"
                        + " REQUIRES_ACTION when the connector has none yet")));
        paths.addPathItem("/v1/payments/{paymentId}/refunds", new PathItem()
                .post(op("createRefund", "Refund a COMPLETED payment, in full or in part",
                        "Idempotent with `Idempotency-Key`. The refund row (PENDING, its amount reserved) is committed"
                                + " before the connector hears of it; the refund id is the connector's idempotency"
                                + " key. PENDING + SUCCEEDED refunds never exceed the payment's amount.")
                        .addParametersItem(path("paymentId", "`pay_…`"))
                        .addParametersItem(idempotencyKey())
                        .requestBody(body("NewRefund", false))
                        .responses(responses(true)
                                .addApiResponse("201", json("The refund (PENDING, or already settled)", "Refund")
                                        .addHeaderObject("Location", header("`/v1/refunds/{id}`"))
                                        .addHeaderObject("Idempotent-Replayed", header("`true` on a replay")))
                                .addApiResponse("400", problem(ProblemCode.INVALID_REQUEST,
                                        ProblemCode.IDEMPOTENCY_KEY_MISSING, ProblemCode.IDEMPOTENCY_KEY_INVALID))
                                .addApiResponse("404", problem(ProblemCode.NOT_FOUND))
                                .addApiResponse("409", problem(ProblemCode.PAYMENT_NOT_REFUNDABLE,
                                        ProblemCode.AMOUNT_EXCEEDS_REFUNDABLE,
                                        ProblemCode.IDEMPOTENCY_REQUEST_IN_PROGRESS))
                                .addApiResponse("413", problem(ProblemCode.PAYLOAD_TOO_LARGE))
                                .addApiResponse("415", problem(ProblemCode.UNSUPPORTED_MEDIA_TYPE))
                                .addApiResponse("422", problem(ProblemCode.IDEMPOTENCY_KEY_REUSED))
                                .addApiResponse("502", problem(ProblemCode.GATEWAY_ERROR))))
                .get(op("listRefunds", "A payment's refunds, newest first", null)
                        .addParametersItem(path("paymentId", "`pay_…`"))
                        .addParametersItem(limit())
                        .addParametersItem(startingAfter("a refund id `re_…`"))
                        .responses(responses(true)
                                .addApiResponse("200", json("A page of refunds", "RefundList"))
                                .addApiResponse("400", problem(ProblemCode.INVALID_REQUEST))
                                .addApiResponse("404", problem(ProblemCode.NOT_FOUND)))));
        paths.addPathItem("/v1/refunds/{refundId}", new PathItem()
                .get(op("getRefund", "A refund", null)
                        .addParametersItem(path("refundId", "`re_…`"))
                        .responses(responses(true)
                                .addApiResponse("200", json("The refund", "Refund"))
                                .addApiResponse("404", problem(ProblemCode.NOT_FOUND)))));
        paths.addPathItem("/v1/payments/{paymentId}/disputes", new PathItem()
                .get(op("listPaymentDisputes", "A payment's disputes, newest first",
                        "All of them in one answer: a payment has few.")
                        .addParametersItem(path("paymentId", "`pay_…`"))
                        .responses(responses(true)
                                .addApiResponse("200", json("The payment's disputes", "PaymentDisputes"))
                                .addApiResponse("404", problem(ProblemCode.NOT_FOUND)))));
        paths.addPathItem("/v1/disputes", new PathItem()
                .get(op("listDisputes", "List the merchant's disputes, newest first",
                        "Keyset pages: pass the last id of a page as `starting_after` for the next.")
                        .addParametersItem(query("status", "only disputes in this status",
                                string(null)._enum(Arrays.stream(DisputeStatus.values()).map(Enum::name).toList())))
                        .addParametersItem(limit())
                        .addParametersItem(startingAfter("a dispute id `dp_…`"))
                        .responses(responses(true)
                                .addApiResponse("200", json("A page of disputes", "DisputeList"))
                                .addApiResponse("400", problem(ProblemCode.INVALID_REQUEST)))));
        paths.addPathItem("/v1/disputes/{disputeId}", new PathItem()
                .get(op("getDispute", "A dispute", null)
                        .addParametersItem(path("disputeId", "`dp_…`"))
                        .responses(responses(true)
                                .addApiResponse("200", json("The dispute", "Dispute"))
                                .addApiResponse("404", problem(ProblemCode.NOT_FOUND)))));
        paths.addPathItem("/v1/bookings/{bookingId}", new PathItem()
                .get(op("getBooking", "A booking: AWAITING_PAYMENT until one of its payments completes", null)
                        .addParametersItem(path("bookingId", "the client's booking id"))
                        .responses(responses(true)
                                .addApiResponse("200", json("The booking", "Booking"))
                                .addApiResponse("404", problem(ProblemCode.NOT_FOUND)))));
        paths.addPathItem("/v1/events", new PathItem()
                .get(op("listEvents", "List the merchant's events, oldest first",
                        "A log to follow: pass the last id of a page as `starting_after`.")
                        .addParametersItem(query("paymentId", "only this payment's events", new StringSchema()))
                        .addParametersItem(query("bookingId", "only this booking's events", new StringSchema()))
                        .addParametersItem(query("type", "only events of this type",
                                string(null)._enum(EVENT_TYPES)))
                        .addParametersItem(limit())
                        .addParametersItem(startingAfter("an event id"))
                        .responses(responses(true)
                                .addApiResponse("200", json("A page of events", "EventList"))
                                .addApiResponse("400", problem(ProblemCode.INVALID_REQUEST)))));
        paths.addPathItem("/v1/events/{eventId}/deliveries", new PathItem()
                .get(op("listDeliveries", "The attempts to deliver an event to the merchant's webhook-url", null)
                        .addParametersItem(path("eventId", "`evt_…`"))
                        .addParametersItem(limit())
                        .addParametersItem(startingAfter("a delivery id `wd_…`"))
                        .responses(responses(true)
                                .addApiResponse("200", json("A page of attempts, first attempt first", "DeliveryList"))
                                .addApiResponse("400", problem(ProblemCode.INVALID_REQUEST))
                                .addApiResponse("404", problem(ProblemCode.NOT_FOUND)))));
        paths.addPathItem("/v1/events/{eventId}/redeliver", new PathItem()
                .post(op("redeliverEvent", "Queue one more delivery of the event now", null)
                        .addParametersItem(path("eventId", "`evt_…`"))
                        .responses(responses(true)
                                .addApiResponse("202", json("The queued attempt", "Delivery"))
                                .addApiResponse("400", problem(ProblemCode.INVALID_REQUEST))
                                .addApiResponse("404", problem(ProblemCode.NOT_FOUND)))));
        paths.addPathItem("/v1/sandbox/charges", new PathItem()
                .get(op("listSandboxCharges", "The sandbox gateway's charges for one of the merchant's payments", null)
                        .addParametersItem(query("paymentId", "the payment", new StringSchema()).required(true))
                        .responses(responses(true)
                                .addApiResponse("200", json("The charges, one per attempt", "SandboxChargeList"))
                                .addApiResponse("400", problem(ProblemCode.INVALID_REQUEST))
                                .addApiResponse("404", problem(ProblemCode.NOT_FOUND)))));
        return paths;
    }

    /** The path of a connector's webhook endpoint, as {@code webhooks.api.ConnectorWebhookController} serves it. */
    static String webhookPath(Connector connector) {
        return "/v1/webhooks/" + connector.name() + (connector.webhooksPerMerchant() ? "/{merchantId}" : "");
    }

    /** A connector's webhook endpoint, from its own description. */
    private static PathItem webhookEndpoint(Connector connector) {
        WebhookEndpointDescription about = connector.webhookEndpoint();
        Operation operation = op(about.operationId(), about.summary(), about.description()).security(List.of());
        if (connector.webhooksPerMerchant()) {
            operation.addParametersItem(path("merchantId", "the merchant whose account at this connector sends it"));
        }
        about.signatureHeaders().forEach(header -> operation.addParametersItem(webhookHeader(header)));
        operation.requestBody(about.bodySchema() != null ? body(about.bodySchema(), true)
                : new RequestBody().required(true).content(new Content().addMediaType(JSON,
                        new MediaType().schema(new ObjectSchema().description(about.bodyDescription())))));
        ApiResponses responses = responses(false).addApiResponse("200", switch (connector.acknowledgement()) {
            case STATUS_JSON -> json("What became of it", "WebhookAnswer");
            case ACCEPTED_TEXT -> new ApiResponse().description("Always `[accepted]`, as the connector expects")
                    .content(new Content().addMediaType("text/plain",
                            new MediaType().schema(new StringSchema()._enum(List.of("[accepted]")))));
        });
        if (about.signatureFailure() == SignatureFailure.BAD_REQUEST) {
            responses.addApiResponse("400", problem(ProblemCode.WEBHOOK_SIGNATURE_REJECTED, ProblemCode.WEBHOOK_INVALID,
                    ProblemCode.INVALID_REQUEST));
        } else {
            responses.addApiResponse("400", problem(ProblemCode.WEBHOOK_INVALID, ProblemCode.INVALID_REQUEST));
        }
        if (about.signatureFailure() == SignatureFailure.UNAUTHORIZED) {
            responses.addApiResponse("401", problem(ProblemCode.WEBHOOK_SIGNATURE_INVALID));
        }
        responses.addApiResponse("404", problem(ProblemCode.NOT_FOUND))
                .addApiResponse("413", problem(ProblemCode.PAYLOAD_TOO_LARGE))
                .addApiResponse("502", problem(ProblemCode.GATEWAY_ERROR));
        return new PathItem().post(operation.responses(responses));
    }

    private static Map<String, Object> payment() {
        String at = "2026-11-30T02:14:31.123Z";
        List<Object> history = List.of(
                ordered2("from", null, "to", "PENDING", "event", "CREATE", "source", "api", "sourceId", "order-1001", "at", at),
                ordered2("from", "PENDING", "to", "PROCESSING", "event", "SUBMIT", "source", "api", "sourceId",
                        "order-1001", "at", "2026-11-30T02:14:31.245Z"));
        return ordered2("id", "pay_3kTq9ZLmW0bXc7RfA2yHn5Dv", "bookingId", "bk_1001", "amount", 12000, "currency", "JPY",
                "status", "PROCESSING", "version", 2, "paymentMethod", "pm_card_ok", "failureReason", null,
                "attempt", 1, "connector", "sandbox", "connectorReference", "ch_Vb7Qx2LmN9pR4tY6aK1sW3eZ",
                "attempts", List.of(ordered2("number", 1, "connector", "sandbox", "reference",
                        "ch_Vb7Qx2LmN9pR4tY6aK1sW3eZ", "status", "PROCESSING", "failureReason", null, "createdAt", at)),
                "amountRefunded", 0, "amountDisputed", 0, "captureMethod", "automatic", "amountCapturable", 0,
                "amountCaptured", 0, "authorizationExpiresAt", null, "cancelRequestedAt", null,
                "returnUrl", "https://hotel.example/bookings/bk_1001/paid", "nextAction", null, "createdAt", at, "updatedAt", "2026-11-30T02:14:31.245Z",
                "metadata", Map.of("orderId", "1001"), "history", history);
    }

    /** A map in the order given (null values allowed), for examples. */
    private static Map<String, Object> ordered2(Object... nameAndValue) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < nameAndValue.length; i += 2) {
            map.put((String) nameAndValue[i], nameAndValue[i + 1]);
        }
        return map;
    }

    /**
     * A POST on an existing payment (capture, cancel, complete): idempotent, conditional on `If-Match`, answered with
     * the payment.
     */
    private static Operation actionOnAPayment(String id, String summary, String description, String bodySchema,
                                              String answer) {
        return op(id, summary, description)
                .addParametersItem(path("paymentId", "`pay_…`"))
                .addParametersItem(idempotencyKey())
                .addParametersItem(ifMatch())
                .requestBody(body(bodySchema, false))
                .responses(responses(true)
                        .addApiResponse("200", json(answer, "Payment")
                                .addHeaderObject("ETag", header("`\"<version>\"`"))
                                .addHeaderObject("Idempotent-Replayed", header("`true` on a replay")))
                        .addApiResponse("400", problem(ProblemCode.INVALID_REQUEST,
                                ProblemCode.IDEMPOTENCY_KEY_MISSING, ProblemCode.IDEMPOTENCY_KEY_INVALID))
                        .addApiResponse("404", problem(ProblemCode.NOT_FOUND))
                        .addApiResponse("409", problem(ProblemCode.INVALID_TRANSITION,
                                ProblemCode.IDEMPOTENCY_REQUEST_IN_PROGRESS, ProblemCode.CONCURRENT_MODIFICATION))
                        .addApiResponse("412", problem(ProblemCode.VERSION_MISMATCH))
                        .addApiResponse("413", problem(ProblemCode.PAYLOAD_TOO_LARGE))
                        .addApiResponse("415", problem(ProblemCode.UNSUPPORTED_MEDIA_TYPE))
                        .addApiResponse("422", problem(ProblemCode.IDEMPOTENCY_KEY_REUSED))
                        .addApiResponse("502", problem(ProblemCode.GATEWAY_ERROR)));
    }

    private static Operation op(String id, String summary, String description) {
        return new Operation().operationId(id).summary(summary).description(description)
                .addSecurityItem(new SecurityRequirement().addList(BEARER));
    }

    /**
     * The responses every operation may give: 401 (with an API key), the HTTP server's limits (408, 414, 431:
     * web/HttpLimits), 500, 503 (database unavailable, or over payments.http.max-in-flight: web/InFlightLimit).
     */
    private static ApiResponses responses(boolean authenticated) {
        ApiResponses responses = new ApiResponses();
        if (authenticated) {
            responses.addApiResponse("401", problem(ProblemCode.UNAUTHENTICATED));
        }
        return responses
                .addApiResponse("408", problem(ProblemCode.REQUEST_TIMEOUT))
                .addApiResponse("414", problem(ProblemCode.URI_TOO_LONG))
                .addApiResponse("431", problem(ProblemCode.REQUEST_HEADER_TOO_LARGE))
                .addApiResponse("500", problem(ProblemCode.INTERNAL_ERROR))
                .addApiResponse("503", problem(ProblemCode.SERVICE_UNAVAILABLE));
    }

    private static ApiResponse json(String description, String schema) {
        return new ApiResponse().description(description)
                .content(new Content().addMediaType(JSON, new MediaType().schema(ref(schema))));
    }

    private static ApiResponse problem(ProblemCode... codes) {
        MediaType media = new MediaType().schema(ref("Problem"));
        for (ProblemCode code : codes) {
            Map<String, Object> example = new LinkedHashMap<>();
            example.put("type", code.type());
            example.put("title", code.title());
            example.put("status", code.status().value());
            example.put("detail", "…");
            example.put("code", code.code());
            media.addExamples(code.code(), new Example().value(example));
        }
        return new ApiResponse().description("Problem; `code`: " + Arrays.stream(codes)
                        .map(code -> "`" + code.code() + "`").collect(Collectors.joining(", ")))
                .content(new Content().addMediaType(PROBLEM_JSON, media));
    }

    private static RequestBody body(String schema, boolean required) {
        return new RequestBody().required(required)
                .content(new Content().addMediaType(JSON, new MediaType().schema(ref(schema))));
    }

    private static Header header(String description) {
        return new Header().description(description).schema(new StringSchema());
    }

    private static Parameter idempotencyKey() {
        return new HeaderParameter().name("Idempotency-Key").required(true)
                .description("1-255 visible ASCII characters; a quoted key is the same as its content")
                .schema(new StringSchema().minLength(1).maxLength(255));
    }

    private static Parameter ifMatch() {
        return new HeaderParameter().name("If-Match").required(false)
                .description("`\"<version>\"`: 412 unless it is the current version (strong comparison)")
                .schema(new StringSchema());
    }

    private static Parameter webhookHeader(String name) {
        return new HeaderParameter().name(name).required(true).schema(new StringSchema());
    }

    private static Parameter path(String name, String description) {
        return new PathParameter().name(name).required(true).description(description).schema(new StringSchema());
    }

    private static Parameter query(String name, String description, Schema<?> schema) {
        return new QueryParameter().name(name).required(false).description(description).schema(schema);
    }

    private static Parameter limit() {
        return query("limit", "items per page", new IntegerSchema().minimum(BigDecimal.ONE)
                .maximum(BigDecimal.valueOf(100))._default(20));
    }

    private static Parameter startingAfter(String what) {
        return query("starting_after", "the last id of the previous page (" + what + ")", new StringSchema());
    }

    private static Schema<?> page(String item) {
        return object(ordered("data", new ArraySchema().items(ref(item)), "has_more", new BooleanSchema()),
                List.of("data", "has_more"));
    }

    private static Schema<?> object(Map<String, Schema> properties, List<String> required) {
        // a plain Schema: ObjectSchema would turn a Map example into its toString()
        Schema<Object> schema = new Schema<>();
        schema.setType("object");
        schema.setProperties(new LinkedHashMap<>(properties));
        schema.setRequired(required);
        return schema;
    }

    private static Map<String, Schema> ordered(Object... nameAndSchema) {
        Map<String, Schema> properties = new LinkedHashMap<>();
        for (int i = 0; i < nameAndSchema.length; i += 2) {
            properties.put((String) nameAndSchema[i], (Schema) nameAndSchema[i + 1]);
        }
        return properties;
    }

    private static Schema<?> ref(String name) {
        return new Schema<>().$ref("#/components/schemas/" + name);
    }

    private static StringSchema string(String description) {
        StringSchema schema = new StringSchema();
        schema.setDescription(description);
        return schema;
    }

    private static Schema<?> status() {
        return string(null)._enum(Arrays.stream(PaymentStatus.values()).map(Enum::name).toList());
    }

    /** `{"type": "redirect", "url": "…"}` while the payment waits for its customer, else null. */
    private static Schema<?> nextAction() {
        Schema<?> schema = object(ordered(
                        "type", string("how to bring the customer there; always `redirect` (send the browser to"
                                + " `url` with GET)")._enum(List.of("redirect")),
                        "url", string("the connector's page for the customer (3-D Secure, the bank, a wallet); for"
                                + " the sandbox the service's own `/sandbox/authenticate/{chargeId}`")),
                List.of("type", "url"));
        schema.setDescription("where the customer must go; only while REQUIRES_ACTION, else null");
        return nullable(schema);
    }

    private static StringSchema captureMethod() {
        return string(null)._enum(Arrays.stream(CaptureMethod.values()).map(CaptureMethod::value).toList());
    }

    private static Schema<?> timestamp() {
        return new StringSchema().format("date-time");
    }

    private static Schema<?> timestamp(String description) {
        return new StringSchema().format("date-time").description(description);
    }

    private static Schema<?> integer(String description) {
        return new IntegerSchema().description(description);
    }

    private static Schema<?> long64(String description) {
        return new IntegerSchema().format("int64").description(description);
    }

    private static <T extends Schema<?>> T nullable(T schema) {
        schema.setNullable(true);
        return schema;
    }
}
