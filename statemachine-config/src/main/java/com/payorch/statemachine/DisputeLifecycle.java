package com.payorch.statemachine;

import java.util.List;
import java.util.Objects;
import reactor.core.publisher.Mono;

/**
 * Answers "which status does a dispute move to when this event happens?" using the dispute state machine, asked once
 * per (status, event) pair and the answer kept ({@link CachedTransitions}), like {@link RefundLifecycle}.
 */
public final class DisputeLifecycle {

    private final CachedTransitions<DisputeState, DisputeEvent, DisputeStatus> transitions = new CachedTransitions<>(
            DisputeState.class, DisputeEvent.class, DisputeStateMachineDefinition.newFactory(),
            DisputeState::toStatus);
    private final List<LifecycleTransition> defined = DefinedTransitions.of(
            DisputeStateMachineDefinition.newFactory(), DisputeState::toStatus);

    /**
     * @param from  the current status (a dispute exists from its first report on, OPEN)
     * @param event what the connector reported
     * @return the new status if the transition is allowed, or an empty Mono if it is refused
     */
    public Mono<DisputeStatus> next(DisputeStatus from, DisputeEvent event) {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(event, "event");
        return transitions.next(DisputeState.of(from), event);
    }

    /** The transitions of the dispute state machine, read from its definition in declaration order. */
    public List<LifecycleTransition> transitions() {
        return defined;
    }
}
