package com.payorch.statemachine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

/** The expected answer of {@link PaymentLifecycle#next} for every (from, event) pair, written out by hand. */
final class TransitionTable {

    /** One row: {@code expected == null} means the event must be refused. */
    record Row(@Nullable PaymentStatus from, PaymentEvent event, @Nullable PaymentStatus expected) {
        @Override
        public String toString() {
            return (from == null ? "(none)" : from) + " --" + event + "--> "
                    + (expected == null ? "refused" : expected);
        }
    }

    private static final PaymentStatus NONE = null;
    private static final PaymentStatus REFUSED = null;

    static final List<Row> ROWS = List.of(
            new Row(NONE, PaymentEvent.CREATE, PaymentStatus.PENDING),
            new Row(NONE, PaymentEvent.SUBMIT, REFUSED),
            new Row(NONE, PaymentEvent.SUCCEED, REFUSED),
            new Row(NONE, PaymentEvent.FAIL, REFUSED),
            new Row(NONE, PaymentEvent.RETRY, REFUSED),

            new Row(PaymentStatus.PENDING, PaymentEvent.CREATE, REFUSED),
            new Row(PaymentStatus.PENDING, PaymentEvent.SUBMIT, PaymentStatus.PROCESSING),
            new Row(PaymentStatus.PENDING, PaymentEvent.SUCCEED, REFUSED),
            new Row(PaymentStatus.PENDING, PaymentEvent.FAIL, PaymentStatus.FAILED),
            new Row(PaymentStatus.PENDING, PaymentEvent.RETRY, REFUSED),

            new Row(PaymentStatus.PROCESSING, PaymentEvent.CREATE, REFUSED),
            new Row(PaymentStatus.PROCESSING, PaymentEvent.SUBMIT, REFUSED),
            new Row(PaymentStatus.PROCESSING, PaymentEvent.SUCCEED, PaymentStatus.COMPLETED),
            new Row(PaymentStatus.PROCESSING, PaymentEvent.FAIL, PaymentStatus.FAILED),
            new Row(PaymentStatus.PROCESSING, PaymentEvent.RETRY, REFUSED),

            new Row(PaymentStatus.COMPLETED, PaymentEvent.CREATE, REFUSED),
            new Row(PaymentStatus.COMPLETED, PaymentEvent.SUBMIT, REFUSED),
            new Row(PaymentStatus.COMPLETED, PaymentEvent.SUCCEED, REFUSED),
            new Row(PaymentStatus.COMPLETED, PaymentEvent.FAIL, REFUSED),
            new Row(PaymentStatus.COMPLETED, PaymentEvent.RETRY, REFUSED),

            new Row(PaymentStatus.FAILED, PaymentEvent.CREATE, REFUSED),
            new Row(PaymentStatus.FAILED, PaymentEvent.SUBMIT, REFUSED),
            new Row(PaymentStatus.FAILED, PaymentEvent.SUCCEED, REFUSED),
            new Row(PaymentStatus.FAILED, PaymentEvent.FAIL, REFUSED),
            new Row(PaymentStatus.FAILED, PaymentEvent.RETRY, PaymentStatus.PENDING));

    private TransitionTable() {
    }

    static Stream<Row> rows() {
        return ROWS.stream();
    }

    /** Every possible "from" value: no payment yet, then each status. */
    static List<PaymentStatus> allFromValues() {
        List<PaymentStatus> from = new ArrayList<>();
        from.add(null);
        from.addAll(Arrays.asList(PaymentStatus.values()));
        return from;
    }
}
