package com.payorch.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A PENDING refund is sent again less and less often (issue 22, finding 3: Adyen refunds were resent every
 * `refund-pending-after` with no end): half the time it has waited, never sooner than `refund-pending-after`, never
 * later than `reconcile-backoff-max`. How many sends that makes over a connector's key lifetime is bounded.
 */
class RefundReconcilerLeaseTest {

    private static final Duration QUIET = Duration.ofSeconds(5);
    private static final Duration MAX = Duration.ofHours(1);

    @Test
    void aYoungRefundIsLookedAtEveryQuietPeriod() {
        assertThat(RefundReconciler.lease(Duration.ofSeconds(3), QUIET, MAX)).isEqualTo(QUIET);
        assertThat(RefundReconciler.lease(Duration.ZERO, QUIET, MAX)).isEqualTo(QUIET);
    }

    @Test
    void anOlderRefundWaitsHalfItsAge() {
        assertThat(RefundReconciler.lease(Duration.ofMinutes(10), QUIET, MAX)).isEqualTo(Duration.ofMinutes(5));
    }

    @Test
    void theWaitIsCapped() {
        assertThat(RefundReconciler.lease(Duration.ofDays(3), QUIET, MAX)).isEqualTo(MAX);
    }

    @Test
    void overAdyensThirtyDayKeyLifetimeARefundIsSentAFewHundredTimesNotHalfAMillion() {
        Duration waited = Duration.ZERO;
        int looks = 0;
        while (waited.compareTo(Duration.ofDays(30)) < 0) {
            waited = waited.plus(RefundReconciler.lease(waited, QUIET, MAX));
            looks++;
        }
        // every 5 s for 30 days would be 518,400 sends
        assertThat(looks).isLessThan(800);
    }
}
