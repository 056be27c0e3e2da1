package com.payorch.statemachine;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.Function;
import org.springframework.messaging.support.MessageBuilder;
import org.springframework.statemachine.StateMachine;
import org.springframework.statemachine.StateMachineEventResult;
import org.springframework.statemachine.StateMachineEventResult.ResultType;
import org.springframework.statemachine.config.StateMachineFactory;
import org.springframework.statemachine.support.DefaultStateMachineContext;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A state machine's answers to "which state does {@code event} lead to from {@code state}?", each asked once and
 * kept. The definitions have no guards or actions, so an answer never changes, and building, resetting and starting
 * a machine per request cost ~84 µs and ~234 KB of garbage per create (JMH, docs/performance.md). Thread-safe: each
 * first question builds its own machine from the shared, immutable definition, resets it to the state, sends the
 * event and stops it.
 *
 * @param <S> the machine's states
 * @param <E> its events
 * @param <T> the status a state stands for, as the facade answers it
 */
final class CachedTransitions<S extends Enum<S>, E extends Enum<E>, T> {

    private static final Duration FOREVER = Duration.ofMillis(Long.MAX_VALUE);

    private final StateMachineFactory<S, E> machines;
    private final Function<S, T> toStatus;
    private final Map<S, Map<E, Mono<T>>> answers;

    CachedTransitions(Class<S> states, Class<E> events, StateMachineFactory<S, E> machines, Function<S, T> toStatus) {
        this.machines = machines;
        this.toStatus = toStatus;
        this.answers = new EnumMap<>(states);
        for (S state : states.getEnumConstants()) {
            Map<E, Mono<T>> byEvent = new EnumMap<>(events);
            for (E event : events.getEnumConstants()) {
                // Kept forever once answered (a status, or empty for a refusal); an error is not kept.
                byEvent.put(event, askMachine(state, event).cache(status -> FOREVER, error -> Duration.ZERO,
                        () -> FOREVER));
            }
            answers.put(state, byEvent);
        }
    }

    /** The status {@code event} leads to from {@code from}, or an empty Mono when the machine refuses it. */
    Mono<T> next(S from, E event) {
        return answers.get(from).get(event);
    }

    private Mono<T> askMachine(S start, E event) {
        return Mono.usingWhen(
                Mono.fromSupplier(machines::getStateMachine),
                machine -> resetTo(machine, start)
                        .then(machine.startReactively())
                        .then(send(machine, event)),
                StateMachine::stopReactively);
    }

    private Mono<Void> resetTo(StateMachine<S, E> machine, S state) {
        var context = new DefaultStateMachineContext<S, E>(state, null, null, null);
        return Flux.fromIterable(machine.getStateMachineAccessor().withAllRegions())
                .concatMap(region -> region.resetStateMachineReactively(context))
                .then();
    }

    // A refused event is not an error in Spring Statemachine: it comes back as a DENIED result.
    private Mono<T> send(StateMachine<S, E> machine, E event) {
        return machine.sendEvent(Mono.just(MessageBuilder.withPayload(event).build()))
                .filter(result -> result.getResultType() == ResultType.ACCEPTED)
                .next()
                .flatMap(result -> completionOf(result)
                        .then(Mono.fromSupplier(() -> toStatus.apply(machine.getState().getId()))));
    }

    // complete() is null for results built without a completion signal (StateMachineEventResult.from(3 args)).
    private Mono<Void> completionOf(StateMachineEventResult<S, E> result) {
        Mono<Void> complete = result.complete();
        return complete != null ? complete : Mono.empty();
    }
}
