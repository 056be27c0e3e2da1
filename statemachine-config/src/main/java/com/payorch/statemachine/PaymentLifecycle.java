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
 * Answers "which status does a payment move to when this event happens?" using the payment state machine.
 *
 * <p>The machine is asked once per (status, event) pair and the answer is kept: the definition has no guards or
 * actions, so an answer never changes, and building, resetting and starting a machine per request cost ~84 µs and
 * ~234 KB of garbage per create (JMH, docs/performance.md). Thread-safe: each first question builds its own
 * machine from the shared, immutable definition, resets it to {@code from}, sends the event and stops it.
 */
public final class PaymentLifecycle {

    private static final Duration FOREVER = Duration.ofMillis(Long.MAX_VALUE);

    private final StateMachineFactory<LifecycleState, PaymentEvent> machines =
            PaymentStateMachineDefinition.newFactory();
    private final Map<LifecycleState, Map<PaymentEvent, Mono<PaymentStatus>>> answers =
            new EnumMap<>(LifecycleState.class);

    public PaymentLifecycle() {
        for (LifecycleState state : LifecycleState.values()) {
            Map<PaymentEvent, Mono<PaymentStatus>> byEvent = new EnumMap<>(PaymentEvent.class);
            for (PaymentEvent event : PaymentEvent.values()) {
                // Kept forever once answered (a status, or empty for a refusal); an error is not kept.
                byEvent.put(event, askMachine(state, event).cache(status -> FOREVER, error -> Duration.ZERO,
                        () -> FOREVER));
            }
            answers.put(state, byEvent);
        }
    }

    /**
     * @param from  the current status, or {@code null} when the payment does not exist yet
     * @param event what happened
     * @return the new status if the transition is allowed, or an empty Mono if it is refused
     */
    public Mono<PaymentStatus> next(@Nullable PaymentStatus from, PaymentEvent event) {
        Objects.requireNonNull(event, "event");
        return answers.get(LifecycleState.of(from)).get(event);
    }

    private Mono<PaymentStatus> askMachine(LifecycleState start, PaymentEvent event) {
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
