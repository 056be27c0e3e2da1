package com.payorch.statemachine;

import java.util.List;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.springframework.statemachine.StateMachine;
import org.springframework.statemachine.config.StateMachineFactory;
import org.springframework.statemachine.state.State;
import org.springframework.statemachine.transition.Transition;

/**
 * Reads the transitions out of a state machine definition, so that a picture of the life cycle is drawn from the
 * definition itself and cannot drift from it. The machine is built but never started.
 */
final class DefinedTransitions {

    private DefinedTransitions() {
    }

    /**
     * @param machines the definition
     * @param toStatus the public status a state stands for (never called for the initial state)
     * @return the transitions in the order the definition declares them; the initial state is a {@code null} source
     */
    static <S extends Enum<S>, E extends Enum<E>> List<LifecycleTransition> of(StateMachineFactory<S, E> machines,
            Function<S, ? extends Enum<?>> toStatus) {
        StateMachine<S, E> machine = machines.getStateMachine();
        S initial = machine.getInitialState().getId();
        return machine.getTransitions().stream()
                .map(transition -> describe(transition, initial, toStatus))
                .toList();
    }

    private static <S extends Enum<S>, E extends Enum<E>> LifecycleTransition describe(Transition<S, E> transition,
            S initial, Function<S, ? extends Enum<?>> toStatus) {
        S source = transition.getSource().getId();
        @Nullable String sourceName = source == initial ? null : toStatus.apply(source).name();
        if (transition.getTrigger() == null || transition.getTrigger().getEvent() == null) {
            throw new IllegalStateException("A transition without an event cannot be described: " + source + " -> "
                    + nameOf(transition.getTarget()));
        }
        return new LifecycleTransition(sourceName, transition.getTrigger().getEvent().name(),
                toStatus.apply(transition.getTarget().getId()).name());
    }

    private static String nameOf(State<?, ?> state) {
        return String.valueOf(state.getId());
    }
}
