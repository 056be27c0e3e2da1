package com.payorch.statemachine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;
import static org.assertj.core.api.Assertions.tuple;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import org.assertj.core.groups.Tuple;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import reactor.test.StepVerifier;

/** Every (status, event) pair of the attempt life cycle, written out by hand. */
class AttemptLifecycleTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final AttemptStatus NONE = null;
    private static final AttemptStatus REFUSED = null;

    record Row(@Nullable AttemptStatus from, AttemptEvent event, @Nullable AttemptStatus expected) {
        @Override
        public String toString() {
            return (from == null ? "(none)" : from) + " --" + event + "--> "
                    + (expected == null ? "refused" : expected);
        }
    }

    static final List<Row> ROWS = List.of(
            new Row(NONE, AttemptEvent.CREATE, AttemptStatus.PENDING),
            new Row(NONE, AttemptEvent.SUBMIT, REFUSED),
            new Row(NONE, AttemptEvent.SUCCEED, REFUSED),
            new Row(NONE, AttemptEvent.FAIL, REFUSED),
            new Row(NONE, AttemptEvent.CHARGE_ORPHANED, REFUSED),

            new Row(AttemptStatus.PENDING, AttemptEvent.CREATE, REFUSED),
            new Row(AttemptStatus.PENDING, AttemptEvent.SUBMIT, AttemptStatus.PROCESSING),
            new Row(AttemptStatus.PENDING, AttemptEvent.SUCCEED, REFUSED),
            new Row(AttemptStatus.PENDING, AttemptEvent.FAIL, AttemptStatus.FAILED),
            new Row(AttemptStatus.PENDING, AttemptEvent.CHARGE_ORPHANED, REFUSED),

            new Row(AttemptStatus.PROCESSING, AttemptEvent.CREATE, REFUSED),
            new Row(AttemptStatus.PROCESSING, AttemptEvent.SUBMIT, REFUSED),
            new Row(AttemptStatus.PROCESSING, AttemptEvent.SUCCEED, AttemptStatus.SUCCEEDED),
            new Row(AttemptStatus.PROCESSING, AttemptEvent.FAIL, AttemptStatus.FAILED),
            new Row(AttemptStatus.PROCESSING, AttemptEvent.CHARGE_ORPHANED, REFUSED),

            new Row(AttemptStatus.SUCCEEDED, AttemptEvent.CREATE, REFUSED),
            new Row(AttemptStatus.SUCCEEDED, AttemptEvent.SUBMIT, REFUSED),
            new Row(AttemptStatus.SUCCEEDED, AttemptEvent.SUCCEED, REFUSED),
            new Row(AttemptStatus.SUCCEEDED, AttemptEvent.FAIL, REFUSED),
            new Row(AttemptStatus.SUCCEEDED, AttemptEvent.CHARGE_ORPHANED, REFUSED),

            new Row(AttemptStatus.FAILED, AttemptEvent.CREATE, REFUSED),
            new Row(AttemptStatus.FAILED, AttemptEvent.SUBMIT, REFUSED),
            new Row(AttemptStatus.FAILED, AttemptEvent.SUCCEED, REFUSED),
            new Row(AttemptStatus.FAILED, AttemptEvent.FAIL, REFUSED),
            new Row(AttemptStatus.FAILED, AttemptEvent.CHARGE_ORPHANED, AttemptStatus.SUCCEEDED));

    private final AttemptLifecycle lifecycle = new AttemptLifecycle();

    static Stream<Row> transitionTable() {
        return ROWS.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("transitionTable")
    void answersEveryPairAsTheTableSays(Row row) {
        StepVerifier.FirstStep<AttemptStatus> verifier = StepVerifier.create(lifecycle.next(row.from(), row.event()));
        if (row.expected() == null) {
            verifier.expectComplete().verify(TIMEOUT);
        } else {
            verifier.expectNext(row.expected()).expectComplete().verify(TIMEOUT);
        }
    }

    @Test
    void tableCoversEveryFromAndEventPairExactlyOnce() {
        List<AttemptStatus> from = new ArrayList<>();
        from.add(null);
        from.addAll(Arrays.asList(AttemptStatus.values()));
        Tuple[] everyPair = from.stream()
                .flatMap(status -> Stream.of(AttemptEvent.values()).map(event -> tuple(status, event)))
                .toArray(Tuple[]::new);

        assertThat(everyPair).hasSize(25);
        assertThat(ROWS).extracting(Row::from, Row::event).containsExactlyInAnyOrder(everyPair);
    }

    /**
     * The current attempt moves with its payment: every payment step but RETRY (which creates the next attempt) is
     * the attempt's step of the same name, to the attempt status that stands for the payment's (COMPLETED is
     * SUCCEEDED).
     */
    @Test
    void theCurrentAttemptFollowsEveryPaymentStepButRetry() {
        PaymentLifecycle payments = new PaymentLifecycle();
        TransitionTable.rows()
                .filter(row -> row.expected() != null && row.event() != PaymentEvent.RETRY)
                // The attempt life cycle models automatic capture; a hold's steps are the payment's own.
                .filter(row -> AUTOMATIC_CAPTURE.contains(row.expected())
                        && (row.from() == null || AUTOMATIC_CAPTURE.contains(row.from())))
                .forEach(row -> StepVerifier.create(lifecycle.next(attemptStatus(row.from()),
                                AttemptEvent.valueOf(row.event().name())))
                        .expectNext(attemptStatus(row.expected()))
                        .expectComplete()
                        .verify(TIMEOUT));
        StepVerifier.create(payments.next(PaymentStatus.FAILED, PaymentEvent.RETRY)
                        .flatMap(retried -> lifecycle.next(null, AttemptEvent.CREATE)))
                .expectNext(AttemptStatus.PENDING)
                .expectComplete()
                .verify(TIMEOUT);
    }

    @Test
    void rejectsNullEvent() {
        assertThatNullPointerException().isThrownBy(() -> lifecycle.next(AttemptStatus.PENDING, null));
    }

    private static final java.util.Set<PaymentStatus> AUTOMATIC_CAPTURE = java.util.EnumSet.of(PaymentStatus.PENDING,
            PaymentStatus.PROCESSING, PaymentStatus.COMPLETED, PaymentStatus.FAILED);

    private static @Nullable AttemptStatus attemptStatus(@Nullable PaymentStatus payment) {
        if (payment == null) {
            return null;
        }
        return switch (payment) {
            case PENDING -> AttemptStatus.PENDING;
            case PROCESSING -> AttemptStatus.PROCESSING;
            case COMPLETED -> AttemptStatus.SUCCEEDED;
            case FAILED -> AttemptStatus.FAILED;
            default -> throw new IllegalArgumentException(payment + " is not a step of the attempt life cycle");
        };
    }
}
