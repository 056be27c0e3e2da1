package com.payorch.statemachine;

import java.util.Objects;

import org.springframework.lang.Nullable;
import org.springframework.messaging.support.MessageBuilder;
import org.springframework.statemachine.StateMachine;
import org.springframework.statemachine.StateMachineEventResult;
import org.springframework.statemachine.StateMachineEventResult.ResultType;
import org.springframework.statemachine.config.StateMachineFactory;
import org.springframework.statemachine.support.DefaultStateMachineContext;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Answers "which status does a payment move to when this event happens?" using the payment state machine.
 *
 * <p>Thread-safe: a state machine is stateful, so every subscription gets its own machine, reset to the
 * requested state, and stops it afterwards. Only the immutable definition (the factory) is shared.
 */
public final class PaymentLifecycle {

    private final StateMachineFactory<LifecycleState, PaymentEvent> machines =
            PaymentStateMachineDefinition.newFactory();

    /**
     * @param from  the current status, or {@code null} when the payment does not exist yet
     * @param event what happened
     * @return the new status if the transition is allowed, or an empty Mono if it is refused
     */
    public Mono<PaymentStatus> next(@Nullable PaymentStatus from, PaymentEvent event) {
        Objects.requireNonNull(event, "event");
        LifecycleState start = LifecycleState.of(from);
        return Mono.usingWhen(
                Mono.fromSupplier(machines::getStateMachine),
                machine -> resetTo(machine, start)
                        .then(machine.startReactively())
                        .then(send(machine, event)),
                StateMachine::stopReactively);
    }

    private static Mono<Void> resetTo(StateMachine<LifecycleState, PaymentEvent> machine, LifecycleState state) {
        var context = new DefaultStateMachineContext<LifecycleState, PaymentEvent>(state, null, null, null);
        return Flux.fromIterable(machine.getStateMachineAccessor().withAllRegions())
                .concatMap(region -> region.resetStateMachineReactively(context))
                .then();
    }

    // A refused event is not an error in Spring Statemachine: it comes back as a DENIED result.
    private static Mono<PaymentStatus> send(StateMachine<LifecycleState, PaymentEvent> machine, PaymentEvent event) {
        return machine.sendEvent(Mono.just(MessageBuilder.withPayload(event).build()))
                .filter(result -> result.getResultType() == ResultType.ACCEPTED)
                .next()
                .flatMap(result -> completionOf(result)
                        .then(Mono.fromSupplier(() -> machine.getState().getId().toStatus())));
    }

    // complete() is null for results built without a completion signal (StateMachineEventResult.from(3 args)).
    private static Mono<Void> completionOf(StateMachineEventResult<LifecycleState, PaymentEvent> result) {
        Mono<Void> complete = result.complete();
        return complete != null ? complete : Mono.empty();
    }
}
