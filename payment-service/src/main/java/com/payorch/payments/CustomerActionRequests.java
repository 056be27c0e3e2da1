package com.payorch.payments;

import com.payorch.gateway.CompleteRequest;
import com.payorch.gateway.ConnectorRefusedException;
import com.payorch.gateway.GatewayOutcome;
import com.payorch.gateway.GatewayUnavailableException;
import com.payorch.gateway.PaymentGateway;
import com.payorch.statemachine.PaymentStatus;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Asks the connector for the outcome of a payment waiting for its customer, after the customer came back (the
 * merchant forwards what their browser brought: `POST /v1/payments/{id}/complete`). The answer is an outcome for
 * {@link GatewayOutcomes}. Empty when there is nothing to ask (the payment no longer waits: a webhook settled it) or
 * the connector gave no usable answer now (unreachable, or it refused the completion): the payment is answered as it
 * stands, and the connector's webhook or the expiry settles it. A lost answer is an error: the client's retry of its
 * request asks again under the same connector key.
 */
@Component
public class CustomerActionRequests {

    private static final Logger log = LoggerFactory.getLogger(CustomerActionRequests.class);

    private final PaymentGateway gateway;
    private final AttemptReferences references;

    public CustomerActionRequests(PaymentGateway gateway, AttemptReferences references) {
        this.gateway = gateway;
        this.references = references;
    }

    public Mono<Optional<GatewayOutcome>> sendCompletion(Payment payment, @Nullable String redirectResult) {
        if (payment.status() != PaymentStatus.REQUIRES_ACTION) {
            return Mono.just(Optional.empty());
        }
        return references.referenceOf(payment.id(), payment.attempt())
                .map(reference -> payment.chargeRequest().withReference(reference))
                .defaultIfEmpty(payment.chargeRequest())
                .flatMap(charge -> gateway.complete(new CompleteRequest(charge, redirectResult)))
                .map(Optional::of)
                .onErrorResume(e -> e instanceof GatewayUnavailableException || e instanceof ConnectorRefusedException,
                        e -> {
                            log.warn("Connector {} gave no outcome for the completion of payment {}: {}",
                                    payment.connector(), payment.id(), e.getMessage());
                            return Mono.just(Optional.empty());
                        });
    }
}
