package com.payorch.statemachine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The transitions read out of the definitions (for drawing the life cycle) are exactly the hand-written tables, in
 * declaration order, and agree with what the machines answer.
 */
class LifecycleTransitionsTest {

    @Test
    void paymentTransitionsAreTheDefinitionsTable() {
        assertThat(new PaymentLifecycle().transitions()).containsExactly(
                new LifecycleTransition(null, "CREATE", "PENDING"),
                new LifecycleTransition("PENDING", "SUBMIT", "PROCESSING"),
                new LifecycleTransition("PENDING", "FAIL", "FAILED"),
                new LifecycleTransition("PROCESSING", "SUCCEED", "COMPLETED"),
                new LifecycleTransition("PROCESSING", "FAIL", "FAILED"),
                new LifecycleTransition("FAILED", "RETRY", "PENDING"),
                new LifecycleTransition("PROCESSING", "AUTHORIZE", "AUTHORIZED"),
                new LifecycleTransition("AUTHORIZED", "CAPTURE", "CAPTURING"),
                new LifecycleTransition("CAPTURING", "SUCCEED", "COMPLETED"),
                new LifecycleTransition("CAPTURING", "CAPTURE_FAIL", "AUTHORIZED"),
                new LifecycleTransition("AUTHORIZED", "CANCEL", "CANCELLED"),
                new LifecycleTransition("PENDING", "CANCEL", "CANCELLED"),
                new LifecycleTransition("PROCESSING", "CANCEL", "CANCELLED"),
                new LifecycleTransition("PENDING", "REQUIRE_ACTION", "REQUIRES_ACTION"),
                new LifecycleTransition("PROCESSING", "REQUIRE_ACTION", "REQUIRES_ACTION"),
                new LifecycleTransition("REQUIRES_ACTION", "SUBMIT", "PROCESSING"),
                new LifecycleTransition("REQUIRES_ACTION", "AUTHORIZE", "AUTHORIZED"),
                new LifecycleTransition("REQUIRES_ACTION", "SUCCEED", "COMPLETED"),
                new LifecycleTransition("REQUIRES_ACTION", "FAIL", "FAILED"),
                new LifecycleTransition("REQUIRES_ACTION", "CANCEL", "CANCELLED"));
    }

    @Test
    void refundTransitionsAreTheDefinitionsTable() {
        assertThat(new RefundLifecycle().transitions()).containsExactly(
                new LifecycleTransition(null, "CREATE", "PENDING"),
                new LifecycleTransition("PENDING", "SUCCEED", "SUCCEEDED"),
                new LifecycleTransition("PENDING", "FAIL", "FAILED"),
                new LifecycleTransition("SUCCEEDED", "REVERSE", "FAILED"));
    }

    /** The refund's description and decisions come from the same definition too. */
    @Test
    void everyAllowedRefundTransitionIsDescribedAndNoOther() {
        List<LifecycleTransition> allowed = RefundLifecycleTest.ROWS.stream()
                .filter(row -> row.expected() != null)
                .map(row -> new LifecycleTransition(row.from() == null ? null : row.from().name(),
                        row.event().name(), row.expected().name()))
                .toList();
        assertThat(new RefundLifecycle().transitions()).containsExactlyInAnyOrderElementsOf(allowed);
    }

    @Test
    void bookingTransitionsAreTheDefinitionsTable() {
        assertThat(new BookingLifecycle().transitions()).containsExactly(
                new LifecycleTransition(null, "CREATE", "AWAITING_PAYMENT"),
                new LifecycleTransition("AWAITING_PAYMENT", "ACTIVATE", "ACTIVE"),
                new LifecycleTransition("ACTIVE", "CANCEL", "CANCELLED"));
    }

    @Test
    void attemptTransitionsAreTheDefinitionsTable() {
        assertThat(new AttemptLifecycle().transitions()).containsExactly(
                new LifecycleTransition(null, "CREATE", "PENDING"),
                new LifecycleTransition("PENDING", "SUBMIT", "PROCESSING"),
                new LifecycleTransition("PENDING", "FAIL", "FAILED"),
                new LifecycleTransition("PROCESSING", "SUCCEED", "SUCCEEDED"),
                new LifecycleTransition("PROCESSING", "FAIL", "FAILED"),
                new LifecycleTransition("FAILED", "CHARGE_ORPHANED", "SUCCEEDED"));
    }

    /** The description and the decisions come from the same definition: every allowed row of the table is listed. */
    @Test
    void everyAllowedPaymentTransitionIsDescribedAndNoOther() {
        List<LifecycleTransition> allowed = TransitionTable.rows()
                .filter(row -> row.expected() != null)
                .map(row -> new LifecycleTransition(row.from() == null ? null : row.from().name(),
                        row.event().name(), row.expected().name()))
                .toList();
        assertThat(new PaymentLifecycle().transitions()).containsExactlyInAnyOrderElementsOf(allowed);
    }

    @Test
    void theListCannotBeChangedByACaller() {
        List<LifecycleTransition> transitions = new PaymentLifecycle().transitions();
        assertThatThrownBy(() -> transitions.add(new LifecycleTransition("COMPLETED", "RETRY", "PENDING")))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThat(transitions.get(0).isInitial()).isTrue();
        assertThat(transitions.get(1).isInitial()).isFalse();
    }
}
