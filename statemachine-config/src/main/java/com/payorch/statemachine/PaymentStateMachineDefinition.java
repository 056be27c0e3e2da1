package com.payorch.statemachine;

import static com.payorch.statemachine.LifecycleState.AUTHORIZED;
import static com.payorch.statemachine.LifecycleState.CANCELLED;
import static com.payorch.statemachine.LifecycleState.CAPTURING;
import static com.payorch.statemachine.LifecycleState.COMPLETED;
import static com.payorch.statemachine.LifecycleState.FAILED;
import static com.payorch.statemachine.LifecycleState.NEW;
import static com.payorch.statemachine.LifecycleState.PENDING;
import static com.payorch.statemachine.LifecycleState.PROCESSING;
import static com.payorch.statemachine.LifecycleState.REQUIRES_ACTION;

import java.util.EnumSet;

import org.springframework.statemachine.config.StateMachineBuilder;
import org.springframework.statemachine.config.StateMachineFactory;

/** The payment life cycle as a Spring Statemachine definition: states and allowed transitions. */
final class PaymentStateMachineDefinition {

    private PaymentStateMachineDefinition() {
    }

    /**
     * Builds the definition once; each {@code getStateMachine()} call on the returned factory then creates a new,
     * independent machine.
     */
    static StateMachineFactory<LifecycleState, PaymentEvent> newFactory() {
        try {
            StateMachineBuilder.Builder<LifecycleState, PaymentEvent> builder = StateMachineBuilder.builder();
            builder.configureConfiguration()
                    .withConfiguration()
                    .autoStartup(false);
            // COMPLETED and CANCELLED are terminal because no transition leaves them; FAILED only leaves by RETRY.
            builder.configureStates()
                    .withStates()
                    .initial(NEW)
                    .states(EnumSet.allOf(LifecycleState.class));
            builder.configureTransitions()
                    .withExternal().source(NEW).target(PENDING).event(PaymentEvent.CREATE).and()
                    .withExternal().source(PENDING).target(PROCESSING).event(PaymentEvent.SUBMIT).and()
                    .withExternal().source(PENDING).target(FAILED).event(PaymentEvent.FAIL).and()
                    .withExternal().source(PROCESSING).target(COMPLETED).event(PaymentEvent.SUCCEED).and()
                    .withExternal().source(PROCESSING).target(FAILED).event(PaymentEvent.FAIL).and()
                    .withExternal().source(FAILED).target(PENDING).event(PaymentEvent.RETRY).and()
                    // Manual capture (holds): authorised, captured later or released.
                    .withExternal().source(PROCESSING).target(AUTHORIZED).event(PaymentEvent.AUTHORIZE).and()
                    .withExternal().source(AUTHORIZED).target(CAPTURING).event(PaymentEvent.CAPTURE).and()
                    .withExternal().source(CAPTURING).target(COMPLETED).event(PaymentEvent.SUCCEED).and()
                    .withExternal().source(CAPTURING).target(AUTHORIZED).event(PaymentEvent.CAPTURE_FAIL).and()
                    .withExternal().source(AUTHORIZED).target(CANCELLED).event(PaymentEvent.CANCEL).and()
                    // A manual payment the connector confirms cancelled before it was authorised.
                    .withExternal().source(PENDING).target(CANCELLED).event(PaymentEvent.CANCEL).and()
                    .withExternal().source(PROCESSING).target(CANCELLED).event(PaymentEvent.CANCEL).and()
                    // Customer action (3-D Secure, redirects): the connector waits for the customer, then answers.
                    .withExternal().source(PENDING).target(REQUIRES_ACTION).event(PaymentEvent.REQUIRE_ACTION).and()
                    .withExternal().source(PROCESSING).target(REQUIRES_ACTION).event(PaymentEvent.REQUIRE_ACTION).and()
                    .withExternal().source(REQUIRES_ACTION).target(PROCESSING).event(PaymentEvent.SUBMIT).and()
                    .withExternal().source(REQUIRES_ACTION).target(AUTHORIZED).event(PaymentEvent.AUTHORIZE).and()
                    .withExternal().source(REQUIRES_ACTION).target(COMPLETED).event(PaymentEvent.SUCCEED).and()
                    .withExternal().source(REQUIRES_ACTION).target(FAILED).event(PaymentEvent.FAIL).and()
                    .withExternal().source(REQUIRES_ACTION).target(CANCELLED).event(PaymentEvent.CANCEL);
            return builder.createFactory();
        } catch (Exception e) {
            throw new IllegalStateException("Invalid payment state machine definition", e);
        }
    }
}
