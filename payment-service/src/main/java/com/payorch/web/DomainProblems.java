package com.payorch.web;

import com.payorch.gateway.GatewayException;
import com.payorch.idempotency.IdempotencyKeyReused;
import com.payorch.idempotency.IdempotencyRequestInProgress;
import com.payorch.refunds.AmountExceedsRefundable;
import com.payorch.payments.BookingCancelled;
import com.payorch.payments.BookingTaken;
import com.payorch.refunds.PaymentNotRefundable;
import com.payorch.refunds.RefundNotFound;
import com.payorch.payments.InvalidTransition;
import com.payorch.payments.PaymentNotFound;
import com.payorch.payments.VersionMismatch;
import com.payorch.support.Refusal;
import com.payorch.support.UnstorableText;
import com.payorch.webhooks.WebhookEndpointUnknown;
import com.payorch.support.UnknownCursor;
import com.payorch.webhooks.WebhookInvalid;
import com.payorch.webhooks.WebhookNotYetMatchable;
import com.payorch.webhooks.WebhookSignatureRejected;
import com.payorch.webhooks.WebhookSignatureInvalid;
import java.util.Map;
import java.util.Optional;

/** The one mapping from the domain's own exceptions to problem responses. */
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
        String detail = refusal.detail();
        if (refusal instanceof PaymentNotFound) {
            return new ApiProblem(ProblemCode.NOT_FOUND, detail);
        }
        if (refusal instanceof RefundNotFound) {
            return new ApiProblem(ProblemCode.NOT_FOUND, detail);
        }
        if (refusal instanceof PaymentNotRefundable) {
            return new ApiProblem(ProblemCode.PAYMENT_NOT_REFUNDABLE, detail);
        }
        if (refusal instanceof AmountExceedsRefundable) {
            return new ApiProblem(ProblemCode.AMOUNT_EXCEEDS_REFUNDABLE, detail);
        }
        if (refusal instanceof BookingCancelled) {
            return new ApiProblem(ProblemCode.BOOKING_CANCELLED, detail);
        }
        if (refusal instanceof UnknownCursor) {
            return new ApiProblem(ProblemCode.INVALID_REQUEST, detail);
        }
        if (refusal instanceof InvalidTransition) {
            return new ApiProblem(ProblemCode.INVALID_TRANSITION, detail);
        }
        if (refusal instanceof BookingTaken taken) {
            return new ApiProblem(taken.alreadyPaid() ? ProblemCode.BOOKING_ALREADY_PAID
                    : ProblemCode.BOOKING_PAYMENT_IN_PROGRESS, detail);
        }
        if (refusal instanceof VersionMismatch) {
            return new ApiProblem(ProblemCode.VERSION_MISMATCH, detail);
        }
        if (refusal instanceof IdempotencyKeyReused) {
            return new ApiProblem(ProblemCode.IDEMPOTENCY_KEY_REUSED, detail);
        }
        if (refusal instanceof IdempotencyRequestInProgress inProgress) {
            return new ApiProblem(ProblemCode.IDEMPOTENCY_REQUEST_IN_PROGRESS, detail,
                    Map.of("Retry-After", Integer.toString(inProgress.retryAfterSeconds())));
        }
        if (refusal instanceof WebhookSignatureInvalid) {
            return new ApiProblem(ProblemCode.WEBHOOK_SIGNATURE_INVALID, detail);
        }
        if (refusal instanceof UnstorableText) {
            return new ApiProblem(ProblemCode.INVALID_REQUEST, detail);
        }
        if (refusal instanceof WebhookSignatureRejected) {
            return new ApiProblem(ProblemCode.WEBHOOK_SIGNATURE_REJECTED, detail);
        }
        if (refusal instanceof WebhookEndpointUnknown) {
            return new ApiProblem(ProblemCode.NOT_FOUND, detail);
        }
        if (refusal instanceof WebhookNotYetMatchable) {
            return new ApiProblem(ProblemCode.SERVICE_UNAVAILABLE, detail,
                    Map.of("Retry-After", ProblemResponses.RETRY_AFTER_SECONDS));
        }
        if (refusal instanceof WebhookInvalid) {
            return new ApiProblem(ProblemCode.WEBHOOK_INVALID, detail);
        }
        throw new IllegalStateException("no problem code for " + refusal.getClass().getName());
    }
}
