package com.payorch.statemachine;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * Answers "which status does a payment attempt move to when this event happens?" using the attempt state machine,
 * asked once per (status, event) pair and the answer kept ({@link CachedTransitions}), like {@link PaymentLifecycle}.
 */
public final class AttemptLifecycle {

    private final CachedTransitions<AttemptState, AttemptEvent, AttemptStatus> transitions = new CachedTransitions<>(
            AttemptState.class, AttemptEvent.class, AttemptStateMachineDefinition.newFactory(),
            AttemptState::toStatus);
    private final List<LifecycleTransition> defined = DefinedTransitions.of(
            AttemptStateMachineDefinition.newFactory(), AttemptState::toStatus);

    /**
     * @param from  the current status, or {@code null} when the attempt does not exist yet
     * @param event what happened
     * @return the new status if the transition is allowed, or an empty Mono if it is refused
     */
    public Mono<AttemptStatus> next(@Nullable AttemptStatus from, AttemptEvent event) {
        Objects.requireNonNull(event, "event");
        return transitions.next(AttemptState.of(from), event);
    }

    /** The transitions of the attempt state machine, in declaration order; the creation step has a null source. */
    public List<LifecycleTransition> transitions() {
        return defined;
    }
}
