package com.payorch.statemachine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import com.payorch.statemachine.TransitionTable.Row;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

class PaymentLifecycleConcurrencyTest {

    private static final int THREADS = 8;
    private static final int CALLS_PER_THREAD = 500;
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final PaymentLifecycle lifecycle = new PaymentLifecycle();

    @Test
    void oneInstanceAnswersCorrectlyFromManyThreadsAtOnce() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        CountDownLatch startTogether = new CountDownLatch(1);
        ConcurrentLinkedQueue<String> wrongAnswers = new ConcurrentLinkedQueue<>();
        try {
            List<Future<Integer>> threads = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int offset = t;
                Callable<Integer> calls = () -> {
                    startTogether.await();
                    int done = 0;
                    for (int i = 0; i < CALLS_PER_THREAD; i++) {
                        // Each thread walks the table from a different offset so that different pairs overlap.
                        Row row = TransitionTable.ROWS.get((offset * 7 + i) % TransitionTable.ROWS.size());
                        Optional<PaymentStatus> answer =
                                lifecycle.next(row.from(), row.event()).blockOptional(TIMEOUT);
                        if (!answer.equals(Optional.ofNullable(row.expected()))) {
                            wrongAnswers.add(row + " but got " + answer);
                        }
                        done++;
                    }
                    return done;
                };
                threads.add(pool.submit(calls));
            }
            startTogether.countDown();

            int total = 0;
            for (Future<Integer> thread : threads) {
                total += thread.get(60, TimeUnit.SECONDS);
            }
            assertThat(wrongAnswers).isEmpty();
            assertThat(total).isEqualTo(THREADS * CALLS_PER_THREAD);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void oneInstanceAnswersCorrectlyFromParallelReactivePipelines() {
        int calls = THREADS * CALLS_PER_THREAD;

        List<String> wrongAnswers = Flux.range(0, calls)
                .map(i -> TransitionTable.ROWS.get(i % TransitionTable.ROWS.size()))
                .parallel(THREADS)
                .runOn(Schedulers.parallel())
                .flatMap(row -> lifecycle.next(row.from(), row.event())
                        .map(Optional::of)
                        .defaultIfEmpty(Optional.empty())
                        .filter(answer -> !answer.equals(Optional.ofNullable(row.expected())))
                        .map(answer -> row + " but got " + answer))
                .sequential()
                .collectList()
                .block(Duration.ofSeconds(60));

        assertThat(wrongAnswers).isEmpty();
    }

    @Test
    void theSameMonoSubscribedConcurrentlyUsesSeparateMachines() {
        Mono<PaymentStatus> fail = lifecycle.next(PaymentStatus.PROCESSING, PaymentEvent.FAIL);

        List<PaymentStatus> answers = Flux.range(0, 1_000)
                .parallel(THREADS)
                .runOn(Schedulers.parallel())
                .flatMap(i -> fail)
                .sequential()
                .collectList()
                .block(Duration.ofSeconds(60));

        assertThat(answers).hasSize(1_000).containsOnly(PaymentStatus.FAILED);
    }
}
