package com.payorch.statemachine;

import static com.payorch.statemachine.AttemptState.FAILED;
import static com.payorch.statemachine.AttemptState.NEW;
import static com.payorch.statemachine.AttemptState.PENDING;
import static com.payorch.statemachine.AttemptState.PROCESSING;
import static com.payorch.statemachine.AttemptState.SUCCEEDED;

import java.util.EnumSet;

import org.springframework.statemachine.config.StateMachineBuilder;
import org.springframework.statemachine.config.StateMachineFactory;

/**
 * The attempt life cycle as a Spring Statemachine definition: the payment's own steps (with SUCCEEDED for its
 * COMPLETED, and no RETRY: a retry is a new attempt), plus FAILED -> SUCCEEDED for a charge the connector made after
 * all, once the attempt was superseded.
 */
final class AttemptStateMachineDefinition {

    private AttemptStateMachineDefinition() {
    }

    static StateMachineFactory<AttemptState, AttemptEvent> newFactory() {
        try {
            StateMachineBuilder.Builder<AttemptState, AttemptEvent> builder = StateMachineBuilder.builder();
            builder.configureConfiguration()
                    .withConfiguration()
                    .autoStartup(false);
            // SUCCEEDED is terminal because no transition leaves it; FAILED only leaves by CHARGE_ORPHANED.
            builder.configureStates()
                    .withStates()
                    .initial(NEW)
                    .states(EnumSet.allOf(AttemptState.class));
            builder.configureTransitions()
                    .withExternal().source(NEW).target(PENDING).event(AttemptEvent.CREATE).and()
                    .withExternal().source(PENDING).target(PROCESSING).event(AttemptEvent.SUBMIT).and()
                    .withExternal().source(PENDING).target(FAILED).event(AttemptEvent.FAIL).and()
                    .withExternal().source(PROCESSING).target(SUCCEEDED).event(AttemptEvent.SUCCEED).and()
                    .withExternal().source(PROCESSING).target(FAILED).event(AttemptEvent.FAIL).and()
                    .withExternal().source(FAILED).target(SUCCEEDED).event(AttemptEvent.CHARGE_ORPHANED);
            return builder.createFactory();
        } catch (Exception e) {
            throw new IllegalStateException("Invalid attempt state machine definition", e);
        }
    }
}
