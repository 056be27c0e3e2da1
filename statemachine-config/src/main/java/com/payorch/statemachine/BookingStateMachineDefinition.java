package com.payorch.statemachine;

import static com.payorch.statemachine.BookingState.ACTIVE;
import static com.payorch.statemachine.BookingState.AWAITING_PAYMENT;
import static com.payorch.statemachine.BookingState.CANCELLED;
import static com.payorch.statemachine.BookingState.NEW;

import java.util.EnumSet;

import org.springframework.statemachine.config.StateMachineBuilder;
import org.springframework.statemachine.config.StateMachineFactory;

/**
 * The booking life cycle as a Spring Statemachine definition: AWAITING_PAYMENT until a payment of it completes, then
 * ACTIVE until that payment is refunded in full, then CANCELLED for good.
 */
final class BookingStateMachineDefinition {

    private BookingStateMachineDefinition() {
    }

    static StateMachineFactory<BookingState, BookingEvent> newFactory() {
        try {
            StateMachineBuilder.Builder<BookingState, BookingEvent> builder = StateMachineBuilder.builder();
            builder.configureConfiguration()
                    .withConfiguration()
                    .autoStartup(false);
            // CANCELLED is terminal because no transition leaves it; an ACTIVE booking is never activated again.
            builder.configureStates()
                    .withStates()
                    .initial(NEW)
                    .states(EnumSet.allOf(BookingState.class));
            builder.configureTransitions()
                    .withExternal().source(NEW).target(AWAITING_PAYMENT).event(BookingEvent.CREATE).and()
                    .withExternal().source(AWAITING_PAYMENT).target(ACTIVE).event(BookingEvent.ACTIVATE).and()
                    .withExternal().source(ACTIVE).target(CANCELLED).event(BookingEvent.CANCEL);
            return builder.createFactory();
        } catch (Exception e) {
            throw new IllegalStateException("Invalid booking state machine definition", e);
        }
    }
}
