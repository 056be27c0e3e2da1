package com.payorch.payments;

import com.payorch.payments.internal.AttemptStore;
import java.util.Map;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Which attempt a connector's charge belongs to, for those who hear of charges by the connector's reference
 * (webhooks): the attempt that recorded the reference, the attempts still without one, and the recording of it.
 */
@Component
public class AttemptReferences {

    private final AttemptStore attempts;

    public AttemptReferences(AttemptStore attempts) {
        this.attempts = attempts;
    }

    /** The attempt of {@code connector} whose charge is {@code reference}: (payment id, attempt number). */
    public Mono<Map.Entry<String, Integer>> findAttemptByReference(String connector, String reference) {
        return attempts.findAttemptByReference(connector, reference);
    }

    /** Attempt numbers of a payment whose connector reference is not known yet, first first. */
    public Flux<Integer> attemptsWithoutReference(String paymentId, String connector) {
        return attempts.attemptsWithoutReference(paymentId, connector);
    }

    /** Records the connector's reference of an attempt, if none is recorded yet. */
    public Mono<Void> recordReference(String paymentId, int attempt, String reference) {
        return attempts.recordReference(paymentId, attempt, reference);
    }
}
