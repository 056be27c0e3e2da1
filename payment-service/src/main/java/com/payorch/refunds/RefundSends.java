package com.payorch.refunds;

import com.payorch.gateway.ConnectorRefusedException;
import com.payorch.gateway.ConnectorRoutes;
import com.payorch.gateway.GatewayException;
import com.payorch.gateway.GatewayStatus;
import com.payorch.gateway.GatewayUnavailableException;
import com.payorch.gateway.PaymentGateway;
import com.payorch.gateway.RefundOutcome;
import com.payorch.refunds.internal.RefundStore;
import com.payorch.support.Timestamps;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Sends a PENDING refund to its connector (again), for the request flow and the reconciler alike, and decides what
 * the answer proves (contract v3, "Refunds in doubt and reversed"):
 * <ul>
 *   <li>unreachable ({@link GatewayUnavailableException}): nothing was sent; it stays PENDING;
 *   <li>any other {@link GatewayException}: the answer was lost, the connector may have refunded: the send is counted
 *       in doubt ({@code refunds.sends_in_doubt}) and the error goes on;
 *   <li>a definite refusal ({@link ConnectorRefusedException}, or a FAILED answer) is a FAILED outcome only when the
 *       connector confirmed it holds no such refund, or when no send was ever in doubt and the connector never named
 *       a refund for it; otherwise the first send may have refunded: it stays PENDING, needs attention and is not
 *       sent again (a FAILED refund's amount is refundable again: a double refund).
 * </ul>
 * A same-key resend is made only while the connector honours the key ({@link ConnectorRoutes#keyLifetime}): past
 * it, the same key could make a second refund.
 */
@Component
public class RefundSends {

    private static final Logger log = LoggerFactory.getLogger(RefundSends.class);

    private final PaymentGateway gateway;
    private final ConnectorRoutes routes;
    private final RefundStore store;
    private final Refunds refunds;
    private final Clock clock;

    public RefundSends(PaymentGateway gateway, ConnectorRoutes routes, RefundStore store, Refunds refunds,
                       Clock clock) {
        this.gateway = gateway;
        this.routes = routes;
        this.store = store;
        this.refunds = refunds;
        this.clock = clock;
    }

    /** Whether the refund's connector still honours its idempotency key (the refund id). */
    public boolean withinKeyLifetime(Refund refund) {
        Optional<Duration> lifetime = routes.keyLifetime(refund.connector());
        return lifetime.isEmpty()
                || Duration.between(refund.createdAt(), Timestamps.now(clock)).compareTo(lifetime.get()) < 0;
    }

    /**
     * The connector's answer to the refund, sent with its id as the idempotency key; empty when there is no decided
     * answer to apply (unreachable, past the key lifetime, or a refusal that proves nothing: see the class).
     *
     * @param confirmedNone the connector has just confirmed it holds no refund with this id ({@code findRefund}
     *                      answered empty), so a refusal proves nothing was refunded
     */
    public Mono<Optional<RefundOutcome>> send(Refund refund, boolean confirmedNone) {
        if (!withinKeyLifetime(refund)) {
            log.warn("Refund {} is past connector {}'s key lifetime: not sent again", refund.id(), refund.connector());
            return Mono.just(Optional.empty());
        }
        return gateway.refund(refund.refundRequest())
                .flatMap(outcome -> outcome.status() == GatewayStatus.FAILED
                        ? refused(refund, confirmedNone, outcome.failureReason(), outcome.reference())
                        : Mono.just(Optional.of(outcome)))
                .onErrorResume(ConnectorRefusedException.class, e -> {
                    log.warn("Connector {} refused refund {} of payment {}: {}", refund.connector(), refund.id(),
                            refund.paymentId(), e.getMessage());
                    return refused(refund, confirmedNone, IdempotentRefundFlow.CONNECTOR_REFUSED, null);
                })
                .onErrorResume(e -> e instanceof GatewayUnavailableException
                        && !(e instanceof ConnectorRefusedException), e -> {
                    log.warn("Connector {} unreachable for refund {}; it stays PENDING for the reconciler",
                            refund.connector(), refund.id());
                    return Mono.just(Optional.empty());
                })
                .onErrorResume(e -> e instanceof GatewayException && !(e instanceof GatewayUnavailableException),
                        e -> {
                            log.warn("Refund {} of payment {}: the answer of connector {} was lost; the send is in"
                                    + " doubt: {}", refund.id(), refund.paymentId(), refund.connector(),
                                    e.getMessage());
                            return refunds.countSendInDoubt(refund).then(Mono.error(e));
                        });
    }

    /** A definite refusal, judged against the refund as it is now (an earlier send may have been in doubt). */
    private Mono<Optional<RefundOutcome>> refused(Refund refund, boolean confirmedNone, @Nullable String reason,
                                                  @Nullable String reference) {
        return store.findAnyMerchant(refund.id()).defaultIfEmpty(refund).flatMap(current -> {
            if (confirmedNone || !current.mayExistAtConnector()) {
                return Mono.just(Optional.of(new RefundOutcome(refund.id(), refund.connector(), reference,
                        GatewayStatus.FAILED, reason != null ? reason : IdempotentRefundFlow.CONNECTOR_REFUSED)));
            }
            return refunds.needsAttention(current, Refunds.REFUSED_AFTER_DOUBT)
                    .thenReturn(Optional.<RefundOutcome>empty());
        });
    }
}
