package com.payorch.recovery;

import com.payorch.gateway.ConnectorRoutes;
import com.payorch.gateway.GatewayOutcome;
import com.payorch.payments.AttemptReferences;
import com.payorch.payments.Payment;
import com.payorch.payments.TransitionOrigin;
import com.payorch.payments.TransitionSource;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * No hold stays half-done:
 * <ul>
 *   <li>a CAPTURING payment with no outcome for {@code payments.recovery.pending-after} gets its recorded capture sent
 *       again (same capture number, so the same connector key: never a second capture); whether the first send ever
 *       left cannot be told, and resending is safe, so the shorter quiet period of the two applies. Only while the
 *       connector honours the capture's key (measured from when the capture was recorded): past it, never sent
 *       again (the same key could be a new capture), and the payment needs attention;</li>
 *   <li>a payment whose cancel was recorded and not confirmed (still PENDING, PROCESSING, REQUIRES_ACTION or
 *       AUTHORIZED) for {@code pending-after} gets its cancel sent again. A release sent twice takes no money, so it
 *       is resent whatever the key's age; still unconfirmed after {@code give-up-after}, it needs attention as
 *       well.</li>
 * </ul>
 * Each payment is leased for a look ({@link WorkClaims}); a hold the connector leaves unsettled is looked at less and
 * less often (half the time since its last change, at least {@code pending-after}, at most
 * {@code reconcile-backoff-max}).
 */
@Component
public class HoldRecovery {

    static final String CAPTURE_KIND = "hold-capture";
    static final String CANCEL_KIND = "hold-cancel";
    static final String CAPTURE_PAST_KEY_LIFETIME = "capture without an outcome past the connector's idempotency-key"
            + " lifetime: not sent again; ask the connector what became of it";
    static final String CANCEL_UNCONFIRMED = "cancel not confirmed by the connector after give-up-after; still sent"
            + " again";

    private static final Logger log = LoggerFactory.getLogger(HoldRecovery.class);

    private final StuckHolds holds;
    private final HoldSends sends;
    private final WorkClaims claims;
    private final RecoveryProperties properties;
    private final ConnectorRoutes routes;
    private final AttemptReferences attempts;
    private final HoldMetrics metrics;

    HoldRecovery(StuckHolds holds, HoldSends sends, WorkClaims claims, RecoveryProperties properties,
                 ConnectorRoutes routes, AttemptReferences attempts, HoldMetrics metrics) {
        this.holds = holds;
        this.sends = sends;
        this.claims = claims;
        this.properties = properties;
        this.routes = routes;
        this.attempts = attempts;
        this.metrics = metrics;
    }

    /** One look for captures without an outcome; run every {@code payments.recovery.interval}. */
    public Mono<Long> resendCaptures() {
        return claimed(holds.capturing(properties.pendingAfter(), CAPTURE_KIND, properties.batchSize()), CAPTURE_KIND)
                .concatMap(this::capture)
                .count()
                .onErrorResume(e -> logged("resending captures", e));
    }

    /** One look for cancels not confirmed; run every {@code payments.recovery.interval}. */
    public Mono<Long> resendCancels() {
        return claimed(holds.cancelling(properties.pendingAfter(), CANCEL_KIND, properties.batchSize()), CANCEL_KIND)
                .concatMap(this::cancel)
                .count()
                .onErrorResume(e -> logged("resending cancels", e));
    }

    private Mono<Payment> capture(StuckHolds.Held held) {
        Payment payment = held.payment();
        if (!keyHonoured(payment.connector(), held.sinceChange())) {
            log.warn("Payment {}: capture {} has had no outcome for {}, past the key lifetime of {}; not sent again",
                    payment.id(), payment.hold().captures(), held.sinceChange(), payment.connector());
            metrics.send(HoldSends.CAPTURE, "needs_attention");
            return attempts.holdNeedsAttention(payment, CAPTURE_PAST_KEY_LIFETIME).then(Mono.empty());
        }
        return sends.capture(payment, HoldRecovery::recovered);
    }

    private Mono<Payment> cancel(StuckHolds.Held held) {
        Payment payment = held.payment();
        Mono<Void> flagged = held.sinceChange().compareTo(properties.giveUpAfter()) < 0 ? Mono.empty()
                : Mono.defer(() -> {
                    metrics.send(HoldSends.CANCEL, "needs_attention");
                    return attempts.holdNeedsAttention(payment, CANCEL_UNCONFIRMED);
                });
        return flagged.then(sends.cancel(payment, HoldRecovery::recovered));
    }

    private static TransitionOrigin recovered(GatewayOutcome outcome) {
        return new TransitionOrigin(TransitionSource.RECOVERY, outcome.reference());
    }

    /** Whether the payment's connector still honours a key first used {@code age} ago (no lifetime known: it does). */
    private boolean keyHonoured(String connector, Duration age) {
        return routes.keyLifetime(connector).map(lifetime -> age.compareTo(lifetime) < 0).orElse(true);
    }

    private Flux<StuckHolds.Held> claimed(Flux<StuckHolds.Held> found, String kind) {
        return found.concatMap(held -> claims.claim(kind, held.payment().id(), lease(held.sinceChange()))
                .filter(Boolean::booleanValue)
                .map(claimed -> held));
    }

    /** Half the time since the hold last changed, at least {@code pending-after}, at most the backoff maximum. */
    Duration lease(Duration sinceChange) {
        return lease(sinceChange, properties.pendingAfter(), properties.reconcileBackoffMax());
    }

    static Duration lease(Duration sinceChange, Duration quietFor, Duration backoffMax) {
        Duration half = sinceChange.dividedBy(2);
        Duration backedOff = half.compareTo(backoffMax) > 0 ? backoffMax : half;
        return backedOff.compareTo(quietFor) > 0 ? backedOff : quietFor;
    }

    private static Mono<Long> logged(String what, Throwable e) {
        log.warn("Hold recovery failed while {}; the next run tries again: {}", what, e.toString());
        return Mono.just(0L);
    }
}
