package com.payorch.payments;

import com.payorch.events.EventStore;
import com.payorch.events.EventType;
import com.payorch.gateway.GatewayOutcome;
import com.payorch.gateway.GatewayStatus;
import com.payorch.payments.internal.AttemptStore;
import com.payorch.statemachine.PaymentEvent;
import com.payorch.statemachine.PaymentStatus;
import com.payorch.support.Timestamps;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Applies a connector's outcome to its payment, the same way whoever brought it (the live submit, a webhook, the
 * reconciler), inside the caller's transaction and against the payment as read in it:
 * <ul>
 *   <li>about the current attempt: the steps of {@link OutcomeSteps} through {@link PaymentStateChanges}, or nothing
 *       when the outcome is late or out of order;</li>
 *   <li>about a superseded attempt: never a change of the payment;</li>
 *   <li>a success (the money taken) of a superseded attempt, or of any attempt of a payment that ended without
 *       money ({@link #ENDED_WITHOUT_MONEY}, its current attempt included: the PSP's late word after a give-up): an
 *       orphaned charge, recorded once on the attempt with a {@code charge.orphaned} event and a PENDING refund of
 *       it ({@code reason} {@code orphaned_charge}, {@link OrphanedChargeRefunds}). The payment stays as it is, and
 *       so does the booking its FAIL freed (another payment may hold it by now).</li>
 * </ul>
 * The caller's versioned write makes this safe against a RETRY that starts a new attempt meanwhile.
 */
@Component
public class GatewayOutcomes {

    /** A payment in one of these holds no money by any attempt: a success reported for it is orphaned. */
    public static final Set<PaymentStatus> ENDED_WITHOUT_MONEY = Collections.unmodifiableSet(
            EnumSet.of(PaymentStatus.FAILED, PaymentStatus.CANCELLED));

    private static final Logger log = LoggerFactory.getLogger(GatewayOutcomes.class);

    private final PaymentStateChanges stateChanges;
    private final AttemptStore attempts;
    private final EventStore events;
    private final Clock clock;
    private final OrphanedChargeRefunds refunds;
    private final PaymentMetrics metrics;

    public GatewayOutcomes(PaymentStateChanges stateChanges, AttemptStore attempts, EventStore events, Clock clock,
                           OrphanedChargeRefunds refunds, PaymentMetrics metrics) {
        this.metrics = metrics;
        this.stateChanges = stateChanges;
        this.attempts = attempts;
        this.events = events;
        this.clock = clock;
        this.refunds = refunds;
    }

    public Mono<OutcomeResult> apply(Payment current, GatewayOutcome reported, TransitionOrigin origin) {
        GatewayOutcome outcome = CustomerActionOutcomes.asApplied(current, reported);
        if (outcome.attempt() != current.attempt() || !outcome.connector().equals(current.connector())) {
            return superseded(current, outcome);
        }
        if (outcome.tookMoney() && ENDED_WITHOUT_MONEY.contains(current.status())
                && !authorisationBeforeItsCancel(current, outcome)) {
            return orphaned(current, outcome);
        }
        List<PaymentEvent> steps = OutcomeSteps.of(outcome.status(), current.status(), current.manualCapture(),
                current.actionExpired());
        if (steps.isEmpty()) {
            return attempts.recordReference(current.id(), current.attempt(), outcome.reference())
                    .thenReturn(new OutcomeResult(OutcomeResult.Kind.IGNORED, current, List.of()));
        }
        String failureReason = outcome.failureReason() != null ? outcome.failureReason() : "failed";
        List<PaymentChange> changes = new ArrayList<>();
        Mono<Payment> chain = Mono.just(CustomerActionOutcomes.asking(current, outcome));
        for (PaymentEvent step : steps) {
            chain = chain.flatMap(payment -> stateChanges.apply(payment, step, origin, failureReason,
                            outcome.reference())
                    .doOnNext(changes::add)
                    .map(PaymentChange::payment));
        }
        return chain.map(last -> new OutcomeResult(OutcomeResult.Kind.APPLIED, last, changes));
    }

    /**
     * The change {@link #apply} would make when it is a single update of the current attempt that one statement can
     * write (no RETRY, no change of its booking: COMPLETED, AUTHORIZED, CANCELLED); empty when the outcome needs more (or nothing), so the caller
     * goes through {@link #apply}.
     */
    Mono<PaymentStateChanges.Planned> planSingleStep(Payment current, GatewayOutcome reported,
                                                     TransitionOrigin origin) {
        GatewayOutcome outcome = CustomerActionOutcomes.asApplied(current, reported);
        if (outcome.attempt() != current.attempt() || !outcome.connector().equals(current.connector())) {
            return Mono.empty();
        }
        List<PaymentEvent> steps = OutcomeSteps.of(outcome.status(), current.status(), current.manualCapture(),
                current.actionExpired());
        if (steps.size() != 1) {
            return Mono.empty();
        }
        String failureReason = outcome.failureReason() != null ? outcome.failureReason() : "failed";
        return stateChanges.plan(CustomerActionOutcomes.asking(current, outcome), steps.get(0), origin,
                        failureReason, outcome.reference())
                .filter(plan -> !plan.newAttempt() && !PaymentStateChanges.changesBooking(plan.target()));
    }

    /**
     * A CANCELLED payment's attempt was confirmed released by its connector, which saw the authorisation first: a
     * report of that authorisation arriving late (webhooks are reordered) holds nothing. A capture reported for it
     * does: money was taken after all.
     */
    private static boolean authorisationBeforeItsCancel(Payment current, GatewayOutcome outcome) {
        return current.status() == PaymentStatus.CANCELLED && outcome.status() == GatewayStatus.AUTHORIZED;
    }

    private Mono<OutcomeResult> superseded(Payment current, GatewayOutcome outcome) {
        if (!outcome.tookMoney()) {
            return Mono.just(new OutcomeResult(OutcomeResult.Kind.IGNORED, current, List.of()));
        }
        return orphaned(current, outcome);
    }

    private Mono<OutcomeResult> orphaned(Payment current, GatewayOutcome outcome) {
        return attempts.markOrphaned(current.id(), outcome.attempt(), outcome.connector(), outcome.reference())
                .flatMap(first -> first ? orphanedEvent(current, outcome) : Mono.empty())
                .thenReturn(new OutcomeResult(OutcomeResult.Kind.ORPHANED, current, List.of()));
    }

    private Mono<Void> orphanedEvent(Payment payment, GatewayOutcome outcome) {
        log.warn("Orphaned charge: payment={} merchant={} attempt={} connector={} reference={} (current attempt {},"
                        + " status {})", payment.id(), payment.merchantId(), outcome.attempt(), outcome.connector(),
                outcome.reference(), payment.attempt(), payment.status());
        metrics.orphanedCharge(outcome.connector());
        Instant now = Timestamps.now(clock);
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("paymentId", payment.id());
        data.put("attempt", outcome.attempt());
        data.put("connector", outcome.connector());
        data.put("reference", outcome.reference());
        data.put("amount", payment.amount());
        data.put("currency", payment.currency());
        data.put("metadata", new java.util.TreeMap<>(payment.metadata()));
        // The orphaned charge is refunded automatically, in this same transaction: at most one refund per attempt
        // (a unique index), sent by the refund reconciler; it does not count against the payment's own amount.
        return events.append(payment.merchantId(), EventType.CHARGE_ORPHANED, payment.id(), payment.bookingId(), data,
                        now)
                .then(refunds.createForOrphan(payment, outcome.attempt(), outcome.connector()))
                .then();
    }
}
