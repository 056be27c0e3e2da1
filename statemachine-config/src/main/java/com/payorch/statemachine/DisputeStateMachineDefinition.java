package com.payorch.statemachine;

import static com.payorch.statemachine.DisputeState.LOST;
import static com.payorch.statemachine.DisputeState.NEW;
import static com.payorch.statemachine.DisputeState.OPEN;
import static com.payorch.statemachine.DisputeState.WON;

import java.util.EnumSet;

import org.springframework.statemachine.config.StateMachineBuilder;
import org.springframework.statemachine.config.StateMachineFactory;

/**
 * The dispute life cycle as a Spring Statemachine definition: OPEN, then WON or LOST; a LOST dispute whose chargeback
 * the bank reverses becomes WON, a WON one charged back a second time LOST. Nothing is terminal.
 */
final class DisputeStateMachineDefinition {

    private DisputeStateMachineDefinition() {
    }

    static StateMachineFactory<DisputeState, DisputeEvent> newFactory() {
        try {
            StateMachineBuilder.Builder<DisputeState, DisputeEvent> builder = StateMachineBuilder.builder();
            builder.configureConfiguration()
                    .withConfiguration()
                    .autoStartup(false);
            builder.configureStates()
                    .withStates()
                    .initial(NEW)
                    .states(EnumSet.allOf(DisputeState.class));
            builder.configureTransitions()
                    .withExternal().source(OPEN).target(WON).event(DisputeEvent.WIN).and()
                    .withExternal().source(OPEN).target(LOST).event(DisputeEvent.LOSE).and()
                    .withExternal().source(LOST).target(WON).event(DisputeEvent.WIN).and()
                    .withExternal().source(WON).target(LOST).event(DisputeEvent.LOSE);
            return builder.createFactory();
        } catch (Exception e) {
            throw new IllegalStateException("Invalid dispute state machine definition", e);
        }
    }
}
