package com.payorch.payments;

import com.payorch.gateway.ConnectorRoutes;
import com.payorch.gateway.CurrencyUnits;
import com.payorch.gateway.GatewayException;
import com.payorch.gateway.GatewayOutcome;
import com.payorch.gateway.GatewayUnavailableException;
import com.payorch.gateway.PaymentGateway;
import com.payorch.payments.internal.AttemptStore;
import com.payorch.payments.internal.PaymentStore;
import com.payorch.statemachine.PaymentStatus;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;

/**
 * Submits a payment's current attempt to its connector, and moves it along its route after a definite "not
 * charged" (docs/connectors.md, "Failover"). The rule that keeps two connectors from charging one attempt:
 * <ol>
 *   <li>when the attempt's connector has a next one on the route, each submission is first counted as in doubt on
 *       the attempt (committed before anything is sent);</li>
 *   <li>a {@link GatewayUnavailableException} (never sent, or a definite refusal that is not a decline) takes its
 *       doubt back; an ambiguous failure (time-out, 5xx) or a crash leaves it, and the attempt then never leaves
 *       that connector: it is resubmitted there with the same idempotency key;</li>
 *   <li>the attempt moves to the next connector (the payment's and the attempt's connector, one statement) only when
 *       no submission is in doubt and no reference is recorded; only then is the next connector asked.</li>
 * </ol>
 * A decline is an outcome (FAILED), never a reason to move. Payments never name a connector: the route comes from
 * {@link ConnectorRoutes}.
 */
@Component
public class ConnectorSubmission {

    private static final Logger log = LoggerFactory.getLogger(ConnectorSubmission.class);

    private final PaymentGateway gateway;
    private final ConnectorRoutes routes;
    private final PaymentStore payments;
    private final AttemptStore attempts;
    private final TransactionalOperator transaction;

    public ConnectorSubmission(PaymentGateway gateway, ConnectorRoutes routes, PaymentStore payments,
                               AttemptStore attempts, TransactionalOperator transaction) {
        this.gateway = gateway;
        this.routes = routes;
        this.payments = payments;
        this.attempts = attempts;
        this.transaction = transaction;
    }

    /** The first connector of the merchant's route for a new payment in {@code currency}. */
    public String firstConnector(String merchantId, String currency) {
        return routes.first(merchantId, currency);
    }

    /**
     * The refusal of an amount {@code connector} cannot write in its own units (docs/connectors.md, "Amounts"),
     * or empty when it can.
     */
    public Optional<AmountNotExpressible> inexpressible(String connector, long amount, String currency) {
        CurrencyUnits units = routes.units(connector);
        return units.toConnector(amount, currency).isPresent() ? Optional.empty()
                : Optional.of(new AmountNotExpressible(amount, currency, connector, units.source()));
    }

    /**
     * The merchant's route for the payment, without the connectors after its current one that cannot write its
     * amount: failover skips them.
     */
    private List<String> route(Payment payment) {
        List<String> route = routes.route(payment.merchantId(), payment.currency());
        return route.stream().filter(name -> name.equals(payment.connector())
                        || inexpressible(name, payment.amount(), payment.currency()).isEmpty())
                .toList();
    }

    /**
     * The outcome of the current attempt at its connector, or at the next ones after definite "not charged"
     * answers. {@link GatewayUnavailableException}: no connector of the route could take it now (it stays PENDING);
     * any other {@link GatewayException}: ambiguous, resubmit to the same connector later.
     */
    public Mono<GatewayOutcome> submit(Payment payment) {
        List<String> route = route(payment);
        int at = route.indexOf(payment.connector());
        if (at < 0 || at == route.size() - 1) {
            // Nowhere to move on to: no bookkeeping needed.
            return gateway.submit(payment.chargeRequest());
        }
        String next = route.get(at + 1);
        return attempts.beginSend(payment.id(), payment.attempt(), payment.connector())
                .flatMap(mayBeSent -> !mayBeSent
                        ? Mono.error(new GatewayUnavailableException("payment " + payment.id() + " attempt "
                                + payment.attempt() + " is no longer PENDING at " + payment.connector()))
                        : gateway.submit(payment.chargeRequest())
                                .onErrorResume(GatewayUnavailableException.class,
                                        notCharged -> moveOn(payment, next, notCharged)));
    }

    private Mono<GatewayOutcome> moveOn(Payment payment, String next, GatewayUnavailableException notCharged) {
        return transaction.transactional(
                        attempts.endSendNotCharged(payment.id(), payment.attempt(), payment.connector())
                                .flatMap(left -> left != 0 ? Mono.just(false)
                                        : attempts.moveToConnector(payment.id(), payment.attempt(),
                                                payment.connector(), next)))
                .flatMap(moved -> {
                    if (!moved) {
                        return Mono.error(notCharged);
                    }
                    log.warn("Payment {} attempt {} moved from {} to {}: {}", payment.id(), payment.attempt(),
                            payment.connector(), next, notCharged.getMessage());
                    return payments.findAnyMerchant(payment.id())
                            .filter(current -> current.status() == PaymentStatus.PENDING
                                    && current.attempt() == payment.attempt() && next.equals(current.connector()))
                            .switchIfEmpty(Mono.error(notCharged))
                            .flatMap(this::submit);
                });
    }
}
