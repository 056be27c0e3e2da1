package com.payorch.statemachine;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

import org.jspecify.annotations.Nullable;
import org.springframework.messaging.support.MessageBuilder;
import org.springframework.statemachine.StateMachine;
import org.springframework.statemachine.StateMachineEventResult;
import org.springframework.statemachine.StateMachineEventResult.ResultType;
import org.springframework.statemachine.config.StateMachineFactory;
import org.springframework.statemachine.support.DefaultStateMachineContext;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Answers "which status does a refund move to when this event happens?" using the refund state machine. Built like
 * {@link PaymentLifecycle}: the machine is asked once per (status, event) pair and the answer kept (the definition
 * has no guards or actions, so an answer never changes).
 */
public final class RefundLifecycle {

    private static final Duration FOREVER = Duration.ofMillis(Long.MAX_VALUE);

    private final StateMachineFactory<RefundState, RefundEvent> machines = RefundStateMachineDefinition.newFactory();
    private final Map<RefundState, Map<RefundEvent, Mono<RefundStatus>>> answers = new EnumMap<>(RefundState.class);

    public RefundLifecycle() {
        for (RefundState state : RefundState.values()) {
            Map<RefundEvent, Mono<RefundStatus>> byEvent = new EnumMap<>(RefundEvent.class);
            for (RefundEvent event : RefundEvent.values()) {
                byEvent.put(event, askMachine(state, event).cache(status -> FOREVER, error -> Duration.ZERO,
                        () -> FOREVER));
            }
            answers.put(state, byEvent);
        }
    }

    /**
     * @param from  the current status, or {@code null} when the refund does not exist yet
     * @param event what happened
     * @return the new status if the transition is allowed, or an empty Mono if it is refused
     */
    public Mono<RefundStatus> next(@Nullable RefundStatus from, RefundEvent event) {
        Objects.requireNonNull(event, "event");
        return answers.get(RefundState.of(from)).get(event);
    }

    private Mono<RefundStatus> askMachine(RefundState start, RefundEvent event) {
        return Mono.usingWhen(
                Mono.fromSupplier(machines::getStateMachine),
                machine -> resetTo(machine, start)
                        .then(machine.startReactively())
                        .then(send(machine, event)),
                StateMachine::stopReactively);
    }

    private static Mono<Void> resetTo(StateMachine<RefundState, RefundEvent> machine, RefundState state) {
        var context = new DefaultStateMachineContext<RefundState, RefundEvent>(state, null, null, null);
        return Flux.fromIterable(machine.getStateMachineAccessor().withAllRegions())
                .concatMap(region -> region.resetStateMachineReactively(context))
                .then();
    }

    private static Mono<RefundStatus> send(StateMachine<RefundState, RefundEvent> machine, RefundEvent event) {
        return machine.sendEvent(Mono.just(MessageBuilder.withPayload(event).build()))
                .filter(result -> result.getResultType() == ResultType.ACCEPTED)
                .next()
                .flatMap(result -> completionOf(result)
                        .then(Mono.fromSupplier(() -> machine.getState().getId().toStatus())));
    }

    private static Mono<Void> completionOf(StateMachineEventResult<RefundState, RefundEvent> result) {
        Mono<Void> complete = result.complete();
        return complete != null ? complete : Mono.empty();
    }
}
