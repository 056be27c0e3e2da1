package com.payorch.payments.api;

import com.payorch.idempotency.IdempotentRequest;
import com.payorch.idempotency.RequestFingerprint;
import com.payorch.idempotency.StoredResponse;
import com.payorch.idempotency.api.IdempotencyKeyHeader;
import com.payorch.payments.IdempotentPaymentFlow;
import com.payorch.payments.NewPayment;
import com.payorch.payments.Payment;
import com.payorch.payments.PaymentFilter;
import com.payorch.payments.PaymentNotFound;
import com.payorch.payments.PaymentQueries;
import com.payorch.payments.PaymentResponse;
import com.payorch.payments.VersionMismatch;
import com.payorch.statemachine.PaymentStatus;
import com.payorch.support.PageRequest;
import com.payorch.support.Text;
import com.payorch.web.ApiProblem;
import com.payorch.web.Detached;
import com.payorch.web.Pagination;
import com.payorch.web.RequestBodies;
import com.payorch.web.StrictJson;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.function.Consumer;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

@RestController
public class PaymentController {

    static final Pattern BOOKING_ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    private final StrictJson json;
    private final PaymentRequestParser parser;
    private final IdempotentPaymentFlow flow;
    private final PaymentQueries payments;
    private final PaymentView view;
    private final HoldRequestParser holdParser;
    private final CompleteRequestParser completeParser;

    public PaymentController(StrictJson json, PaymentRequestParser parser, IdempotentPaymentFlow flow,
                             PaymentQueries payments, PaymentView view, HoldRequestParser holdParser,
                             CompleteRequestParser completeParser) {
        this.json = json;
        this.parser = parser;
        this.holdParser = holdParser;
        this.completeParser = completeParser;
        this.flow = flow;
        this.payments = payments;
        this.view = view;
    }

    @PostMapping("/v1/payments")
    public Mono<ResponseEntity<byte[]>> create(ServerWebExchange exchange, Principal principal) {
        String merchantId = principal.getName();
        String key = IdempotencyKeyHeader.parse(exchange.getRequest().getHeaders().get(IdempotencyKeyHeader.NAME));
        return RequestBodies.read(exchange).flatMap(bytes -> {
            JsonNode body = json.parse(bytes);
            NewPayment newPayment = parser.parseCreate(body);
            IdempotentRequest request = idempotentRequest(exchange, merchantId, key, body);
            return Detached.run(flow.create(request, newPayment, response(201, true)));
        }).map(PaymentController::toResponse);
    }

    @PostMapping("/v1/payments/{paymentId}/retry")
    public Mono<ResponseEntity<byte[]>> retry(@PathVariable String paymentId, ServerWebExchange exchange,
                                              Principal principal) {
        String merchantId = principal.getName();
        HttpHeaders headers = exchange.getRequest().getHeaders();
        String key = IdempotencyKeyHeader.parse(headers.get(IdempotencyKeyHeader.NAME));
        List<String> ifMatch = headers.getOrEmpty(HttpHeaders.IF_MATCH);
        return RequestBodies.read(exchange).flatMap(bytes -> {
            JsonNode body = bodyOrEmptyObject(bytes);
            parser.requireEmptyObject(body);
            IdempotentRequest request = idempotentRequest(exchange, merchantId, key, body);
            return Detached.run(flow.retry(request, paymentId, payment -> requireVersion(payment, ifMatch),
                    response(200, false)));
        }).map(PaymentController::toResponse);
    }

    /** Captures an AUTHORIZED hold, all of it or `amount` of it (the rest is released). */
    @PostMapping("/v1/payments/{paymentId}/capture")
    public Mono<ResponseEntity<byte[]>> capture(@PathVariable String paymentId, ServerWebExchange exchange,
                                                Principal principal) {
        return onAnExistingPayment(exchange, principal, (body, request, precondition) -> flow.capture(request, paymentId,
                holdParser.parseCapture(body), precondition, response(200, false)));
    }

    /** Releases a hold (AUTHORIZED, or a manual payment not authorised yet); CANCELLED once the connector confirms. */
    @PostMapping("/v1/payments/{paymentId}/cancel")
    public Mono<ResponseEntity<byte[]>> cancel(@PathVariable String paymentId, ServerWebExchange exchange,
                                               Principal principal) {
        return onAnExistingPayment(exchange, principal, (body, request, precondition) -> flow.cancel(request, paymentId,
                holdParser.parseCancel(body), precondition, response(200, false)));
    }

    /**
     * The customer came back from the connector's page: the connector is asked for the outcome (with the
     * `redirectResult` the browser brought, when there is one). Only a payment in REQUIRES_ACTION may be completed.
     */
    @PostMapping("/v1/payments/{paymentId}/complete")
    public Mono<ResponseEntity<byte[]>> complete(@PathVariable String paymentId, ServerWebExchange exchange,
                                                 Principal principal) {
        return onAnExistingPayment(exchange, principal, (body, request, precondition) -> flow.complete(request, paymentId,
                completeParser.parse(body), precondition, response(200, false)));
    }

    /** What a capture, a cancel or a complete does with its request: the flow it runs, given the parsed body. */
    private interface PaymentAction {
        Mono<StoredResponse> run(JsonNode body, IdempotentRequest request, Consumer<Payment> precondition);
    }

    /**
     * The headers, the body (empty is `{}`) and the If-Match precondition of a capture, a cancel or a complete, then
     * its flow.
     */
    private Mono<ResponseEntity<byte[]>> onAnExistingPayment(ServerWebExchange exchange, Principal principal, PaymentAction action) {
        HttpHeaders headers = exchange.getRequest().getHeaders();
        String key = IdempotencyKeyHeader.parse(headers.get(IdempotencyKeyHeader.NAME));
        List<String> ifMatch = headers.getOrEmpty(HttpHeaders.IF_MATCH);
        return RequestBodies.read(exchange).flatMap(bytes -> {
            JsonNode body = bodyOrEmptyObject(bytes);
            IdempotentRequest request = idempotentRequest(exchange, principal.getName(), key, body);
            return Detached.run(action.run(body, request, payment -> requireVersion(payment, ifMatch)));
        }).map(PaymentController::toResponse);
    }

    @GetMapping("/v1/payments/{paymentId}")
    public Mono<ResponseEntity<byte[]>> get(@PathVariable String paymentId, Principal principal) {
        return payments.findWithHistory(principal.getName(), paymentId)
                .switchIfEmpty(Mono.error(() -> new PaymentNotFound(paymentId)))
                .map(found -> ResponseEntity.ok()
                        .contentType(MediaType.APPLICATION_JSON)
                        .eTag(PaymentView.etag(found.payment()))
                        .body(view.render(found)));
    }

    @GetMapping("/v1/payments")
    public Mono<ResponseEntity<byte[]>> list(@RequestParam(required = false) String bookingId,
                                             @RequestParam(required = false) String status,
                                             @RequestParam(required = false) String createdAfter,
                                             @RequestParam(required = false) String createdBefore,
                                             @RequestParam(required = false) String limit,
                                             @RequestParam(name = "starting_after", required = false) String startingAfter,
                                             Principal principal) {
        if (bookingId != null && !BOOKING_ID.matcher(bookingId).matches()) {
            throw ApiProblem.invalidRequest(
                    "Query parameter 'bookingId' must be 1-64 characters of A-Z a-z 0-9 _ -.");
        }
        PaymentStatus statusFilter = status == null ? null : Arrays.stream(PaymentStatus.values())
                .filter(s -> s.name().equals(status)).findFirst()
                .orElseThrow(() -> ApiProblem.invalidRequest("Query parameter 'status' must be one of "
                        + Arrays.stream(PaymentStatus.values()).map(Enum::name).collect(Collectors.joining(", "))
                        + "."));
        PaymentFilter filter = new PaymentFilter(bookingId, statusFilter,
                Pagination.timestamp("createdAfter", createdAfter), Pagination.timestamp("createdBefore", createdBefore));
        PageRequest page = Pagination.request(limit, startingAfter);
        return payments.list(principal.getName(), filter, page)
                .map(found -> ResponseEntity.ok()
                        .contentType(MediaType.APPLICATION_JSON)
                        .body(view.renderPage(found)));
    }

    /** The answer stored with the idempotency key: status, `Location` (on create), `ETag` and the resource. */
    private PaymentResponse response(int status, boolean withLocation) {
        return found -> {
            Map<String, String> headers = new LinkedHashMap<>();
            if (withLocation) {
                headers.put("Location", "/v1/payments/" + found.payment().id());
            }
            headers.put("ETag", PaymentView.etag(found.payment()));
            return new StoredResponse(status, headers, view.render(found), false);
        };
    }

    /** An empty body is `{}`: it is fingerprinted as `{}` too, so the two are the same request. */
    private JsonNode bodyOrEmptyObject(byte[] bytes) {
        return json.parse(bytes.length == 0 ? "{}".getBytes(StandardCharsets.UTF_8) : bytes);
    }

    private IdempotentRequest idempotentRequest(ServerWebExchange exchange, String merchantId, String key,
                                                JsonNode body) {
        String method = exchange.getRequest().getMethod().name();
        String path = exchange.getRequest().getPath().value();
        return new IdempotentRequest(merchantId, key, method, path,
                RequestFingerprint.of(method, path, json.canonical(body)));
    }

    /**
     * `If-Match`: any number of strong entity-tags (`"<version>"`) in one or several header lines, or `*` (any
     * existing payment); refused with 412 unless one of them is the current version. `W/"3"` never matches.
     */
    private static void requireVersion(Payment payment, List<String> ifMatch) {
        if (ifMatch.isEmpty()) {
            return;
        }
        String current = PaymentView.etag(payment);
        if (!IfMatch.matches(ifMatch, current)) {
            throw new VersionMismatch("If-Match " + Text.printable(String.join(", ", ifMatch))
                    + " does not match the payment's current version " + current
                    + " (strong comparison: a weak W/ tag never matches).");
        }
    }

    private static ResponseEntity<byte[]> toResponse(StoredResponse response) {
        ResponseEntity.BodyBuilder builder = ResponseEntity.status(response.status())
                .contentType(MediaType.APPLICATION_JSON);
        response.headers().forEach(builder::header);
        if (response.replayed()) {
            builder.header("Idempotent-Replayed", "true");
        }
        return builder.body(response.body());
    }
}
