package com.payorch.statemachine;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * Answers "which status does a payment move to when this event happens?" using the payment state machine, asked
 * once per (status, event) pair and the answer kept ({@link CachedTransitions}). Thread-safe.
 */
public final class PaymentLifecycle {

    private final CachedTransitions<LifecycleState, PaymentEvent, PaymentStatus> transitions = new CachedTransitions<>(
            LifecycleState.class, PaymentEvent.class, PaymentStateMachineDefinition.newFactory(),
            LifecycleState::toStatus);
    private final List<LifecycleTransition> defined = DefinedTransitions.of(
            PaymentStateMachineDefinition.newFactory(), LifecycleState::toStatus);

    /**
     * @param from  the current status, or {@code null} when the payment does not exist yet
     * @param event what happened
     * @return the new status if the transition is allowed, or an empty Mono if it is refused
     */
    public Mono<PaymentStatus> next(@Nullable PaymentStatus from, PaymentEvent event) {
        Objects.requireNonNull(event, "event");
        return transitions.next(LifecycleState.of(from), event);
    }

    /**
     * The transitions of the payment state machine, read from its definition in declaration order, for drawing the
     * life cycle (the console's diagram). The creation step has a {@code null} source.
     */
    public List<LifecycleTransition> transitions() {
        return defined;
    }
}
