package com.payorch.disputes.api;

import com.payorch.disputes.DisputeQueries;
import com.payorch.payments.PaymentNotFound;
import com.payorch.payments.PaymentQueries;
import com.payorch.statemachine.DisputeStatus;
import com.payorch.support.Page;
import com.payorch.support.PageRequest;
import com.payorch.web.ApiProblem;
import com.payorch.web.Pagination;
import java.security.Principal;
import java.util.Arrays;
import java.util.stream.Collectors;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/**
 * Disputes, read only: `GET /v1/disputes/{id}`, `GET /v1/payments/{id}/disputes`, `GET /v1/disputes`. A dispute is
 * opened and settled by its connector's reports, never by a client.
 */
@RestController
public class DisputeController {

    private final DisputeQueries disputes;
    private final PaymentQueries payments;
    private final DisputeView view;

    public DisputeController(DisputeQueries disputes, PaymentQueries payments, DisputeView view) {
        this.disputes = disputes;
        this.payments = payments;
        this.view = view;
    }

    @GetMapping("/v1/disputes/{disputeId}")
    public Mono<ResponseEntity<byte[]>> get(@PathVariable String disputeId, Principal principal) {
        return disputes.find(principal.getName(), disputeId)
                .switchIfEmpty(Mono.error(() -> new DisputeNotFound(disputeId)))
                .map(dispute -> ok(view.render(dispute)));
    }

    @GetMapping("/v1/payments/{paymentId}/disputes")
    public Mono<ResponseEntity<byte[]>> ofPayment(@PathVariable String paymentId, Principal principal) {
        String merchantId = principal.getName();
        return payments.find(merchantId, paymentId)
                .switchIfEmpty(Mono.error(() -> new PaymentNotFound(paymentId)))
                .flatMap(payment -> disputes.ofPayment(merchantId, paymentId).collectList())
                .map(found -> ok(view.renderAll(found)));
    }

    @GetMapping("/v1/disputes")
    public Mono<ResponseEntity<byte[]>> list(@RequestParam(required = false) String status,
                                             @RequestParam(required = false) String limit,
                                             @RequestParam(name = "starting_after", required = false)
                                             String startingAfter,
                                             Principal principal) {
        DisputeStatus statusFilter = status == null ? null : Arrays.stream(DisputeStatus.values())
                .filter(s -> s.name().equals(status)).findFirst()
                .orElseThrow(() -> ApiProblem.invalidRequest("Query parameter 'status' must be one of "
                        + Arrays.stream(DisputeStatus.values()).map(Enum::name).collect(Collectors.joining(", "))
                        + "."));
        PageRequest page = Pagination.request(limit, startingAfter);
        return disputes.list(principal.getName(), statusFilter, page.startingAfter(), page.limit() + 1)
                .collectList()
                .map(fetched -> ok(view.renderPage(Page.of(fetched, page.limit()))));
    }

    private static ResponseEntity<byte[]> ok(byte[] body) {
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(body);
    }
}
