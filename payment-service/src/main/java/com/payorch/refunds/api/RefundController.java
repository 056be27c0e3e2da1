package com.payorch.refunds.api;

import com.payorch.idempotency.IdempotentRequest;
import com.payorch.idempotency.RequestFingerprint;
import com.payorch.idempotency.StoredResponse;
import com.payorch.idempotency.api.IdempotencyKeyHeader;
import com.payorch.payments.PaymentNotFound;
import com.payorch.payments.PaymentQueries;
import com.payorch.payments.api.PaymentRequestParser;
import com.payorch.refunds.IdempotentRefundFlow;
import com.payorch.refunds.RefundNotFound;
import com.payorch.refunds.RefundQueries;
import com.payorch.refunds.RefundResponse;
import com.payorch.support.PageRequest;
import com.payorch.web.Detached;
import com.payorch.web.Pagination;
import com.payorch.web.RequestBodies;
import com.payorch.web.StrictJson;
import java.security.Principal;
import java.util.LinkedHashMap;
import java.util.Map;
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

/** Refunds: `POST /v1/payments/{id}/refunds`, `GET /v1/refunds/{id}`, `GET /v1/payments/{id}/refunds`. */
@RestController
public class RefundController {

    private final StrictJson json;
    private final PaymentRequestParser parser;
    private final IdempotentRefundFlow flow;
    private final RefundQueries refunds;
    private final PaymentQueries payments;
    private final RefundView view;

    public RefundController(StrictJson json, PaymentRequestParser parser, IdempotentRefundFlow flow,
                            RefundQueries refunds, PaymentQueries payments, RefundView view) {
        this.json = json;
        this.parser = parser;
        this.flow = flow;
        this.refunds = refunds;
        this.payments = payments;
        this.view = view;
    }

    @PostMapping("/v1/payments/{paymentId}/refunds")
    public Mono<ResponseEntity<byte[]>> create(@PathVariable String paymentId, ServerWebExchange exchange,
                                               Principal principal) {
        String merchantId = principal.getName();
        String key = IdempotencyKeyHeader.parse(exchange.getRequest().getHeaders().get(IdempotencyKeyHeader.NAME));
        return RequestBodies.read(exchange).flatMap(bytes -> {
            JsonNode body = bytes.length == 0 ? json.parse("{}".getBytes()) : json.parse(bytes);
            PaymentRequestParser.RefundFields fields = parser.parseRefund(body);
            String method = exchange.getRequest().getMethod().name();
            String path = exchange.getRequest().getPath().value();
            IdempotentRequest request = new IdempotentRequest(merchantId, key, method, path,
                    RequestFingerprint.of(method, path, json.canonical(body)));
            return Detached.run(flow.create(request, paymentId, fields.amount(), fields.reason(), response()));
        }).map(RefundController::toResponse);
    }

    @GetMapping("/v1/refunds/{refundId}")
    public Mono<ResponseEntity<byte[]>> get(@PathVariable String refundId, Principal principal) {
        return refunds.find(principal.getName(), refundId)
                .switchIfEmpty(Mono.error(() -> new RefundNotFound(refundId)))
                .map(refund -> ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(view.render(refund)));
    }

    @GetMapping("/v1/payments/{paymentId}/refunds")
    public Mono<ResponseEntity<byte[]>> list(@PathVariable String paymentId,
                                             @RequestParam(required = false) String limit,
                                             @RequestParam(name = "starting_after", required = false)
                                             String startingAfter,
                                             Principal principal) {
        String merchantId = principal.getName();
        PageRequest page = Pagination.request(limit, startingAfter);
        return payments.find(merchantId, paymentId)
                .switchIfEmpty(Mono.error(() -> new PaymentNotFound(paymentId)))
                .flatMap(payment -> refunds.list(merchantId, paymentId, page))
                .map(found -> ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON)
                        .body(view.renderPage(found)));
    }

    private RefundResponse response() {
        return refund -> {
            Map<String, String> headers = new LinkedHashMap<>();
            headers.put("Location", "/v1/refunds/" + refund.id());
            return new StoredResponse(201, headers, view.render(refund), false);
        };
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
