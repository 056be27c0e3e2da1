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

    /** Every allowed transition, written out by hand; every other (from, event) pair is refused. */
    private static final List<Row> ALLOWED = List.of(
            new Row(NONE, PaymentEvent.CREATE, PaymentStatus.PENDING),
            new Row(PaymentStatus.PENDING, PaymentEvent.SUBMIT, PaymentStatus.PROCESSING),
            new Row(PaymentStatus.PENDING, PaymentEvent.FAIL, PaymentStatus.FAILED),
            new Row(PaymentStatus.PENDING, PaymentEvent.CANCEL, PaymentStatus.CANCELLED),
            new Row(PaymentStatus.PROCESSING, PaymentEvent.SUCCEED, PaymentStatus.COMPLETED),
            new Row(PaymentStatus.PROCESSING, PaymentEvent.FAIL, PaymentStatus.FAILED),
            new Row(PaymentStatus.PROCESSING, PaymentEvent.AUTHORIZE, PaymentStatus.AUTHORIZED),
            new Row(PaymentStatus.PROCESSING, PaymentEvent.CANCEL, PaymentStatus.CANCELLED),
            new Row(PaymentStatus.AUTHORIZED, PaymentEvent.CAPTURE, PaymentStatus.CAPTURING),
            new Row(PaymentStatus.AUTHORIZED, PaymentEvent.CANCEL, PaymentStatus.CANCELLED),
            new Row(PaymentStatus.CAPTURING, PaymentEvent.SUCCEED, PaymentStatus.COMPLETED),
            new Row(PaymentStatus.CAPTURING, PaymentEvent.CAPTURE_FAIL, PaymentStatus.AUTHORIZED),
            new Row(PaymentStatus.FAILED, PaymentEvent.RETRY, PaymentStatus.PENDING),
            new Row(PaymentStatus.PENDING, PaymentEvent.REQUIRE_ACTION, PaymentStatus.REQUIRES_ACTION),
            new Row(PaymentStatus.PROCESSING, PaymentEvent.REQUIRE_ACTION, PaymentStatus.REQUIRES_ACTION),
            new Row(PaymentStatus.REQUIRES_ACTION, PaymentEvent.SUBMIT, PaymentStatus.PROCESSING),
            new Row(PaymentStatus.REQUIRES_ACTION, PaymentEvent.AUTHORIZE, PaymentStatus.AUTHORIZED),
            new Row(PaymentStatus.REQUIRES_ACTION, PaymentEvent.SUCCEED, PaymentStatus.COMPLETED),
            new Row(PaymentStatus.REQUIRES_ACTION, PaymentEvent.FAIL, PaymentStatus.FAILED),
            new Row(PaymentStatus.REQUIRES_ACTION, PaymentEvent.CANCEL, PaymentStatus.CANCELLED));

    /** The allowed rows, then a refused row for every other (from, event) pair. */
    static final List<Row> ROWS = rowsForEveryPair();

    private static List<Row> rowsForEveryPair() {
        List<Row> rows = new ArrayList<>(ALLOWED);
        for (PaymentStatus from : allFromValues()) {
            for (PaymentEvent event : PaymentEvent.values()) {
                if (ALLOWED.stream().noneMatch(row -> row.from() == from && row.event() == event)) {
                    rows.add(new Row(from, event, null));
                }
            }
        }
        return List.copyOf(rows);
    }

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
