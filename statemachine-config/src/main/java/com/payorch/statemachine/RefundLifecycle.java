package com.payorch.statemachine;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * Answers "which status does a refund move to when this event happens?" using the refund state machine, asked once
 * per (status, event) pair and the answer kept ({@link CachedTransitions}), like {@link PaymentLifecycle}.
 */
public final class RefundLifecycle {

    private final CachedTransitions<RefundState, RefundEvent, RefundStatus> transitions = new CachedTransitions<>(
            RefundState.class, RefundEvent.class, RefundStateMachineDefinition.newFactory(), RefundState::toStatus);
    private final List<LifecycleTransition> defined = DefinedTransitions.of(
            RefundStateMachineDefinition.newFactory(), RefundState::toStatus);

    /**
     * @param from  the current status, or {@code null} when the refund does not exist yet
     * @param event what happened
     * @return the new status if the transition is allowed, or an empty Mono if it is refused
     */
    public Mono<RefundStatus> next(@Nullable RefundStatus from, RefundEvent event) {
        Objects.requireNonNull(event, "event");
        return transitions.next(RefundState.of(from), event);
    }

    /**
     * The transitions of the refund state machine, read from its definition in declaration order, for drawing the
     * life cycle. The creation step has a {@code null} source.
     */
    public List<LifecycleTransition> transitions() {
        return defined;
    }
}
