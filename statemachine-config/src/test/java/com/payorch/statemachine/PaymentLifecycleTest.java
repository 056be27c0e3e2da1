package com.payorch.statemachine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;
import static org.assertj.core.api.Assertions.tuple;

import java.time.Duration;
import java.util.stream.Stream;

import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import com.payorch.statemachine.TransitionTable.Row;

import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

class PaymentLifecycleTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final PaymentLifecycle lifecycle = new PaymentLifecycle();

    static Stream<Row> transitionTable() {
        return TransitionTable.rows();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("transitionTable")
    void answersEveryPairAsTheTableSays(Row row) {
        StepVerifier.FirstStep<PaymentStatus> verifier = StepVerifier.create(lifecycle.next(row.from(), row.event()));
        if (row.expected() == null) {
            verifier.expectComplete().verify(TIMEOUT);
        } else {
            verifier.expectNext(row.expected()).expectComplete().verify(TIMEOUT);
        }
    }

    @Test
    void tableCoversEveryFromAndEventPairExactlyOnce() {
        Tuple[] everyPair = TransitionTable.allFromValues().stream()
                .flatMap(from -> Stream.of(PaymentEvent.values()).map(event -> tuple(from, event)))
                .toArray(Tuple[]::new);

        assertThat(everyPair).hasSize(9 * 10);
        assertThat(TransitionTable.ROWS)
                .extracting(Row::from, Row::event)
                .containsExactlyInAnyOrder(everyPair);
    }

    @Test
    void isLazyAndCanBeResubscribed() {
        Mono<PaymentStatus> submit = lifecycle.next(PaymentStatus.PENDING, PaymentEvent.SUBMIT);

        StepVerifier.create(submit).expectNext(PaymentStatus.PROCESSING).verifyComplete();
        StepVerifier.create(submit).expectNext(PaymentStatus.PROCESSING).verifyComplete();
    }

    @Test
    void rejectsNullEvent() {
        assertThatNullPointerException().isThrownBy(() -> lifecycle.next(PaymentStatus.PENDING, null));
    }
}
