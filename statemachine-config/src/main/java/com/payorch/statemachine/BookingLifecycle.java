package com.payorch.statemachine;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * Answers "which status does a booking move to when this event happens?" using the booking state machine, asked
 * once per (status, event) pair and the answer kept ({@link CachedTransitions}), like {@link PaymentLifecycle}.
 */
public final class BookingLifecycle {

    private final CachedTransitions<BookingState, BookingEvent, BookingStatus> transitions = new CachedTransitions<>(
            BookingState.class, BookingEvent.class, BookingStateMachineDefinition.newFactory(),
            BookingState::toStatus);
    private final List<LifecycleTransition> defined = DefinedTransitions.of(
            BookingStateMachineDefinition.newFactory(), BookingState::toStatus);

    /**
     * @param from  the current status, or {@code null} when the booking does not exist yet
     * @param event what happened
     * @return the new status if the transition is allowed, or an empty Mono if it is refused
     */
    public Mono<BookingStatus> next(@Nullable BookingStatus from, BookingEvent event) {
        Objects.requireNonNull(event, "event");
        return transitions.next(BookingState.of(from), event);
    }

    /** The transitions of the booking state machine, in declaration order; the creation step has a null source. */
    public List<LifecycleTransition> transitions() {
        return defined;
    }
}
