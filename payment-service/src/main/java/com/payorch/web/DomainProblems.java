package com.payorch.web;

import com.payorch.gateway.GatewayException;
import com.payorch.support.Refusal;
import java.util.Optional;

/**
 * The one mapping from the domain's own exceptions to problem responses: a refusal names its problem code, the web
 * layer owns that code's status and title.
 */
final class DomainProblems {

    private DomainProblems() {
    }

    static Optional<ApiProblem> of(Throwable error) {
        if (error instanceof Refusal refusal) {
            return Optional.of(refusal(refusal));
        }
        if (error instanceof GatewayException) {
            return Optional.of(new ApiProblem(ProblemCode.GATEWAY_ERROR,
                    "The payment gateway did not answer as expected; retry with the same Idempotency-Key."));
        }
        return Optional.empty();
    }

    private static ApiProblem refusal(Refusal refusal) {
        ProblemCode code = ProblemCode.byCode(refusal.code()).orElseThrow(() -> new IllegalStateException(
                "no problem code " + refusal.code() + " for " + refusal.getClass().getName()));
        return new ApiProblem(code, refusal.detail(), refusal.headers());
    }
}
