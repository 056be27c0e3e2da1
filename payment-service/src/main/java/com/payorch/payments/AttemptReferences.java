package com.payorch.payments;

import com.payorch.payments.internal.AttemptStore;
import java.util.Map;
import java.util.Optional;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Which attempt a connector's charge belongs to, for those who hear of charges from the connector (webhooks,
 * recovery): the attempt that recorded the reference, the attempt a notification names, and the recording of it.
 * Never by elimination: a charge is bound only to the attempt the connector names or that holds its reference.
 */
@Component
public class AttemptReferences {

    /**
     * The attention reason of an attempt the service asked its connector to cancel by the service's own reference
     * (recovery, at give-up-after without evidence); the connector's confirmation is bound to that attempt.
     */
    public static final String CANCEL_REQUESTED = "cancel by reference requested, awaiting the connector's"
            + " confirmation";

    private final AttemptStore attempts;

    public AttemptReferences(AttemptStore attempts) {
        this.attempts = attempts;
    }

    /** The attempt of {@code connector} whose charge is {@code reference}: (payment id, attempt number). */
    public Mono<Map.Entry<String, Integer>> findAttemptByReference(String connector, String reference) {
        return attempts.findAttemptByReference(connector, reference);
    }

    /**
     * The reference recorded on attempt {@code number} of the payment when that attempt is at {@code connector}
     * (an empty Optional: none recorded yet); empty when the payment has no such attempt at that connector.
     */
    public Mono<Optional<String>> attemptAt(String paymentId, int number, String connector) {
        return attempts.attemptAt(paymentId, number, connector).map(AttemptStore.AttemptAtConnector::reference);
    }

    /** The connector's reference recorded on the payment's attempt {@code number}, if any. */
    public Mono<String> referenceOf(String paymentId, int number) {
        return attempts.referenceOf(paymentId, number);
    }

    /** Records the connector's reference of an attempt, if none is recorded yet. */
    public Mono<Void> recordReference(String paymentId, int attempt, String reference) {
        return attempts.recordReference(paymentId, attempt, reference);
    }

    /** The payment's unsettled attempt at {@code connector} awaiting the confirmation of its cancel by reference. */
    public Mono<Integer> awaitingCancelConfirmation(String paymentId, String connector) {
        return attempts.unsettledAttemptWithAttention(paymentId, connector, CANCEL_REQUESTED);
    }

    /**
     * Why a hold (a capture or cancel recovery cannot finish) needs a person, recorded on its current attempt while
     * the payment is still as read; cleared by its next transition.
     */
    public Mono<Void> holdNeedsAttention(Payment payment, String reason) {
        return attempts.holdNeedsAttention(payment.id(), payment.version(), reason);
    }

    /** Why an unsettled attempt needs a person; cleared when the attempt is settled. */
    public Mono<Void> needsAttention(String paymentId, int attempt, String reason) {
        return attempts.needsAttention(paymentId, attempt, reason);
    }
}
