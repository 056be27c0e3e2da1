package com.payorch.statemachine;

import static com.payorch.statemachine.RefundState.FAILED;
import static com.payorch.statemachine.RefundState.NEW;
import static com.payorch.statemachine.RefundState.PENDING;
import static com.payorch.statemachine.RefundState.SUCCEEDED;

import java.util.EnumSet;

import org.springframework.statemachine.config.StateMachineBuilder;
import org.springframework.statemachine.config.StateMachineFactory;

/**
 * The refund life cycle as a Spring Statemachine definition: PENDING, then SUCCEEDED or FAILED; a SUCCEEDED refund the
 * connector later reports failed or reversed (Stripe `refund.failed`, Adyen `REFUNDED_REVERSED`) becomes FAILED
 * (REVERSE). FAILED is terminal.
 */
final class RefundStateMachineDefinition {

    private RefundStateMachineDefinition() {
    }

    static StateMachineFactory<RefundState, RefundEvent> newFactory() {
        try {
            StateMachineBuilder.Builder<RefundState, RefundEvent> builder = StateMachineBuilder.builder();
            builder.configureConfiguration()
                    .withConfiguration()
                    .autoStartup(false);
            // FAILED is terminal because no transition leaves it.
            builder.configureStates()
                    .withStates()
                    .initial(NEW)
                    .states(EnumSet.allOf(RefundState.class));
            builder.configureTransitions()
                    .withExternal().source(NEW).target(PENDING).event(RefundEvent.CREATE).and()
                    .withExternal().source(PENDING).target(SUCCEEDED).event(RefundEvent.SUCCEED).and()
                    .withExternal().source(PENDING).target(FAILED).event(RefundEvent.FAIL).and()
                    .withExternal().source(SUCCEEDED).target(FAILED).event(RefundEvent.REVERSE);
            return builder.createFactory();
        } catch (Exception e) {
            throw new IllegalStateException("Invalid refund state machine definition", e);
        }
    }
}
