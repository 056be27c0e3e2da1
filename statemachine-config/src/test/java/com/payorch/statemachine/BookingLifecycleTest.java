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

/** Every (status, event) pair of the booking life cycle, written out by hand. */
class BookingLifecycleTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final BookingStatus NONE = null;
    private static final BookingStatus REFUSED = null;

    record Row(@Nullable BookingStatus from, BookingEvent event, @Nullable BookingStatus expected) {
        @Override
        public String toString() {
            return (from == null ? "(none)" : from) + " --" + event + "--> "
                    + (expected == null ? "refused" : expected);
        }
    }

    static final List<Row> ROWS = List.of(
            new Row(NONE, BookingEvent.CREATE, BookingStatus.AWAITING_PAYMENT),
            new Row(NONE, BookingEvent.ACTIVATE, REFUSED),
            new Row(NONE, BookingEvent.CANCEL, REFUSED),

            new Row(BookingStatus.AWAITING_PAYMENT, BookingEvent.CREATE, REFUSED),
            new Row(BookingStatus.AWAITING_PAYMENT, BookingEvent.ACTIVATE, BookingStatus.ACTIVE),
            new Row(BookingStatus.AWAITING_PAYMENT, BookingEvent.CANCEL, REFUSED),

            new Row(BookingStatus.ACTIVE, BookingEvent.CREATE, REFUSED),
            new Row(BookingStatus.ACTIVE, BookingEvent.ACTIVATE, REFUSED),
            new Row(BookingStatus.ACTIVE, BookingEvent.CANCEL, BookingStatus.CANCELLED),

            new Row(BookingStatus.CANCELLED, BookingEvent.CREATE, REFUSED),
            new Row(BookingStatus.CANCELLED, BookingEvent.ACTIVATE, REFUSED),
            new Row(BookingStatus.CANCELLED, BookingEvent.CANCEL, REFUSED));

    private final BookingLifecycle lifecycle = new BookingLifecycle();

    static Stream<Row> transitionTable() {
        return ROWS.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("transitionTable")
    void answersEveryPairAsTheTableSays(Row row) {
        StepVerifier.FirstStep<BookingStatus> verifier = StepVerifier.create(lifecycle.next(row.from(), row.event()));
        if (row.expected() == null) {
            verifier.expectComplete().verify(TIMEOUT);
        } else {
            verifier.expectNext(row.expected()).expectComplete().verify(TIMEOUT);
        }
    }

    @Test
    void tableCoversEveryFromAndEventPairExactlyOnce() {
        List<BookingStatus> from = new ArrayList<>();
        from.add(null);
        from.addAll(Arrays.asList(BookingStatus.values()));
        Tuple[] everyPair = from.stream()
                .flatMap(status -> Stream.of(BookingEvent.values()).map(event -> tuple(status, event)))
                .toArray(Tuple[]::new);

        assertThat(everyPair).hasSize(12);
        assertThat(ROWS).extracting(Row::from, Row::event).containsExactlyInAnyOrder(everyPair);
    }

    @Test
    void rejectsNullEvent() {
        assertThatNullPointerException().isThrownBy(() -> lifecycle.next(BookingStatus.ACTIVE, null));
    }
}
