package com.payorch.recovery;

import com.payorch.gateway.GatewayException;
import com.payorch.gateway.GatewayOutcome;
import com.payorch.payments.GatewayOutcomes;
import com.payorch.payments.HoldRequests;
import com.payorch.payments.OutcomeResult;
import com.payorch.payments.Payment;
import com.payorch.payments.PaymentQueries;
import com.payorch.payments.RetryingTransaction;
import com.payorch.payments.TransitionOrigin;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Sends a hold's recorded capture or cancel (same connector key as every earlier send of it) and applies the answer
 * through {@link GatewayOutcomes}, in a transaction against the payment as re-read there. No answer is not an error
 * here: what was recorded stays, and the hold recovery sends it again later.
 */
@Component
class HoldSends {

    static final String CAPTURE = "capture";
    static final String CANCEL = "cancel";

    private static final Logger log = LoggerFactory.getLogger(HoldSends.class);

    private final HoldRequests requests;
    private final GatewayOutcomes outcomes;
    private final PaymentQueries payments;
    private final RetryingTransaction transaction;
    private final HoldMetrics metrics;

    HoldSends(HoldRequests requests, GatewayOutcomes outcomes, PaymentQueries payments,
              RetryingTransaction transaction, HoldMetrics metrics) {
        this.requests = requests;
        this.outcomes = outcomes;
        this.payments = payments;
        this.transaction = transaction;
        this.metrics = metrics;
    }

    /** The capture {@code capturing} recorded, sent and its outcome applied; the payment when it moved. */
    Mono<Payment> capture(Payment capturing, Function<GatewayOutcome, TransitionOrigin> origin) {
        return sent(CAPTURE, capturing, requests.sendCapture(capturing), origin);
    }

    /** The release {@code cancelling} recorded, sent and its outcome applied; the payment when it moved. */
    Mono<Payment> cancel(Payment cancelling, Function<GatewayOutcome, TransitionOrigin> origin) {
        return sent(CANCEL, cancelling, requests.sendCancel(cancelling), origin);
    }

    private Mono<Payment> sent(String kind, Payment payment, Mono<Optional<GatewayOutcome>> send,
                               Function<GatewayOutcome, TransitionOrigin> origin) {
        return send
                .flatMap(answer -> answer.map(outcome -> applied(kind, outcome, origin.apply(outcome)))
                        .orElseGet(() -> {
                            metrics.send(kind, "unsettled");
                            return Mono.empty();
                        }))
                .onErrorResume(GatewayException.class, e -> {
                    log.info("The {} of payment {} got no answer ({}); recovery sends it again", kind, payment.id(),
                            e.getMessage());
                    metrics.send(kind, "failed");
                    return Mono.empty();
                });
    }

    private Mono<Payment> applied(String kind, GatewayOutcome outcome, TransitionOrigin origin) {
        return transaction.run(() -> payments.findAnyMerchant(outcome.paymentId())
                        .flatMap(current -> outcomes.apply(current, outcome, origin)))
                .doOnNext(result -> metrics.send(kind,
                        result.kind() == OutcomeResult.Kind.APPLIED ? "applied" : "unsettled"))
                .filter(result -> result.kind() == OutcomeResult.Kind.APPLIED)
                .map(OutcomeResult::payment)
                .doOnNext(payment -> log.info("The {} of payment {} moved it to {} ({})", kind, payment.id(),
                        payment.status(), origin.source().value()));
    }
}
