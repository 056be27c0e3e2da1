package com.payorch.statemachine;

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

    /**
     * @param from  the current status, or {@code null} when the payment does not exist yet
     * @param event what happened
     * @return the new status if the transition is allowed, or an empty Mono if it is refused
     */
    public Mono<PaymentStatus> next(@Nullable PaymentStatus from, PaymentEvent event) {
        Objects.requireNonNull(event, "event");
        return transitions.next(LifecycleState.of(from), event);
    }
}
