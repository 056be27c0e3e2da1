package com.payorch.connectors.sandbox.api;

import com.payorch.connectors.sandbox.SandboxCharge;
import com.payorch.connectors.sandbox.SandboxGateway;

import com.payorch.payments.PaymentQueries;
import com.payorch.web.ApiProblem;
import java.security.Principal;
import java.util.List;
import java.util.Map;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/** What the sandbox holds for one of the merchant's payments: how tests and demos count charges. */
@RestController
public class SandboxChargeController {

    private final SandboxGateway sandbox;
    private final PaymentQueries payments;

    public SandboxChargeController(SandboxGateway sandbox, PaymentQueries payments) {
        this.sandbox = sandbox;
        this.payments = payments;
    }

    @GetMapping("/v1/sandbox/charges")
    public Mono<Map<String, List<SandboxCharge>>> charges(@RequestParam(required = false) String paymentId,
                                                          Principal principal) {
        if (paymentId == null || paymentId.isBlank()) {
            throw ApiProblem.invalidRequest("Query parameter 'paymentId' is required.");
        }
        return payments.find(principal.getName(), paymentId)
                .switchIfEmpty(Mono.error(() -> ApiProblem.notFound("No payment " + paymentId + ".")))
                .flatMapMany(payment -> sandbox.chargesFor(payment.id()))
                .collectList()
                .map(charges -> Map.of("data", charges));
    }
}
