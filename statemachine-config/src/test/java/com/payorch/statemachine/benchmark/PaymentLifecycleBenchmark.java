package com.payorch.statemachine.benchmark;

import com.payorch.statemachine.PaymentEvent;
import com.payorch.statemachine.PaymentLifecycle;
import com.payorch.statemachine.PaymentStatus;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What one create costs in state-machine questions: CREATE from nothing and SUBMIT from PENDING, the two a
 * payment request asks. Run: `statemachine-config/benchmark.sh` (prints µs/op and, with -prof gc, bytes/op).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class PaymentLifecycleBenchmark {

    private final PaymentLifecycle lifecycle = new PaymentLifecycle();

    @Benchmark
    public PaymentStatus createAndSubmit() {
        lifecycle.next(null, PaymentEvent.CREATE).block();
        return lifecycle.next(PaymentStatus.PENDING, PaymentEvent.SUBMIT).block();
    }

    @Benchmark
    public PaymentStatus refusedEvent() {
        return lifecycle.next(PaymentStatus.COMPLETED, PaymentEvent.RETRY).block();
    }
}
