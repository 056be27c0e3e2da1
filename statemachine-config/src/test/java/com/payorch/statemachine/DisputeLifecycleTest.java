package com.payorch.statemachine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;
import static org.assertj.core.api.Assertions.tuple;

import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import org.assertj.core.groups.Tuple;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import reactor.test.StepVerifier;

/** Every (status, event) pair of the dispute life cycle, written out by hand in the definition's order. */
class DisputeLifecycleTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final DisputeStatus REFUSED = null;

    record Row(DisputeStatus from, DisputeEvent event, @Nullable DisputeStatus expected) {
        @Override
        public String toString() {
            return from + " --" + event + "--> " + (expected == null ? "refused" : expected);
        }
    }

    static final List<Row> ROWS = List.of(
            new Row(DisputeStatus.OPEN, DisputeEvent.WIN, DisputeStatus.WON),
            new Row(DisputeStatus.OPEN, DisputeEvent.LOSE, DisputeStatus.LOST),

            new Row(DisputeStatus.LOST, DisputeEvent.WIN, DisputeStatus.WON),
            new Row(DisputeStatus.LOST, DisputeEvent.LOSE, REFUSED),

            new Row(DisputeStatus.WON, DisputeEvent.WIN, REFUSED),
            new Row(DisputeStatus.WON, DisputeEvent.LOSE, DisputeStatus.LOST));

    private final DisputeLifecycle lifecycle = new DisputeLifecycle();

    static Stream<Row> transitionTable() {
        return ROWS.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("transitionTable")
    void answersEveryPairAsTheTableSays(Row row) {
        StepVerifier.FirstStep<DisputeStatus> verifier = StepVerifier.create(lifecycle.next(row.from(), row.event()));
        if (row.expected() == null) {
            verifier.expectComplete().verify(TIMEOUT);
        } else {
            verifier.expectNext(row.expected()).expectComplete().verify(TIMEOUT);
        }
    }

    @Test
    void tableCoversEveryFromAndEventPairExactlyOnce() {
        Tuple[] everyPair = Stream.of(DisputeStatus.values())
                .flatMap(status -> Stream.of(DisputeEvent.values()).map(event -> tuple(status, event)))
                .toArray(Tuple[]::new);

        assertThat(everyPair).hasSize(6);
        assertThat(ROWS).extracting(Row::from, Row::event).containsExactlyInAnyOrder(everyPair);
    }

    @Test
    void describesEveryAllowedTransitionWithItsSourceAndNoOther() {
        List<LifecycleTransition> allowed = ROWS.stream()
                .filter(row -> row.expected() != null)
                .map(row -> new LifecycleTransition(row.from().name(), row.event().name(), row.expected().name()))
                .toList();

        assertThat(lifecycle.transitions()).containsExactlyElementsOf(allowed);
    }

    @Test
    void rejectsNullStatusAndEvent() {
        assertThatNullPointerException().isThrownBy(() -> lifecycle.next(null, DisputeEvent.WIN));
        assertThatNullPointerException().isThrownBy(() -> lifecycle.next(DisputeStatus.OPEN, null));
    }
}
