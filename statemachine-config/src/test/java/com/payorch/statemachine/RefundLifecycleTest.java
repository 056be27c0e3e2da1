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

/** Every (status, event) pair of the refund life cycle, written out by hand. */
class RefundLifecycleTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final RefundStatus NONE = null;
    private static final RefundStatus REFUSED = null;

    record Row(@Nullable RefundStatus from, RefundEvent event, @Nullable RefundStatus expected) {
        @Override
        public String toString() {
            return (from == null ? "(none)" : from) + " --" + event + "--> "
                    + (expected == null ? "refused" : expected);
        }
    }

    static final List<Row> ROWS = List.of(
            new Row(NONE, RefundEvent.CREATE, RefundStatus.PENDING),
            new Row(NONE, RefundEvent.SUCCEED, REFUSED),
            new Row(NONE, RefundEvent.FAIL, REFUSED),
            new Row(NONE, RefundEvent.REVERSE, REFUSED),

            new Row(RefundStatus.PENDING, RefundEvent.CREATE, REFUSED),
            new Row(RefundStatus.PENDING, RefundEvent.SUCCEED, RefundStatus.SUCCEEDED),
            new Row(RefundStatus.PENDING, RefundEvent.FAIL, RefundStatus.FAILED),
            new Row(RefundStatus.PENDING, RefundEvent.REVERSE, REFUSED),

            new Row(RefundStatus.SUCCEEDED, RefundEvent.CREATE, REFUSED),
            new Row(RefundStatus.SUCCEEDED, RefundEvent.SUCCEED, REFUSED),
            new Row(RefundStatus.SUCCEEDED, RefundEvent.FAIL, REFUSED),
            new Row(RefundStatus.SUCCEEDED, RefundEvent.REVERSE, RefundStatus.FAILED),

            new Row(RefundStatus.FAILED, RefundEvent.CREATE, REFUSED),
            new Row(RefundStatus.FAILED, RefundEvent.SUCCEED, REFUSED),
            new Row(RefundStatus.FAILED, RefundEvent.FAIL, REFUSED),
            new Row(RefundStatus.FAILED, RefundEvent.REVERSE, REFUSED));

    private final RefundLifecycle lifecycle = new RefundLifecycle();

    static Stream<Row> transitionTable() {
        return ROWS.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("transitionTable")
    void answersEveryPairAsTheTableSays(Row row) {
        StepVerifier.FirstStep<RefundStatus> verifier = StepVerifier.create(lifecycle.next(row.from(), row.event()));
        if (row.expected() == null) {
            verifier.expectComplete().verify(TIMEOUT);
        } else {
            verifier.expectNext(row.expected()).expectComplete().verify(TIMEOUT);
        }
    }

    @Test
    void tableCoversEveryFromAndEventPairExactlyOnce() {
        List<RefundStatus> from = new ArrayList<>();
        from.add(null);
        from.addAll(Arrays.asList(RefundStatus.values()));
        Tuple[] everyPair = from.stream()
                .flatMap(status -> Stream.of(RefundEvent.values()).map(event -> tuple(status, event)))
                .toArray(Tuple[]::new);

        assertThat(everyPair).hasSize(16);
        assertThat(ROWS).extracting(Row::from, Row::event).containsExactlyInAnyOrder(everyPair);
    }

    @Test
    void rejectsNullEvent() {
        assertThatNullPointerException().isThrownBy(() -> lifecycle.next(RefundStatus.PENDING, null));
    }
}
