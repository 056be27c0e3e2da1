package com.payorch.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.payorch.statemachine.PaymentStatus;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** How long a look of the recovery jobs leaves a stuck payment alone ({@link StuckPaymentRecovery#lease}). */
class ReconcileLeaseTest {

    private static final Duration QUIET = Duration.ofSeconds(8);
    private static final Duration MAX = Duration.ofHours(1);

    @ParameterizedTest(name = "{0} after waiting {1}: {2}")
    @CsvSource(textBlock = """
            PROCESSING, PT10S,  PT8S
            PROCESSING, PT16S,  PT8S
            PROCESSING, PT40S,  PT20S
            PROCESSING, PT30M,  PT15M
            PROCESSING, PT4H,   PT1H
            PENDING,    PT4H,   PT8S
            """)
    void halfTheWaitAtLeastOneQuietPeriodAtMostTheMaximumAndPendingAlwaysOneQuietPeriod(PaymentStatus status,
                                                                                         Duration waited,
                                                                                         Duration lease) {
        assertThat(StuckPaymentRecovery.lease(status, QUIET, new StuckPayments.Stuck(null, false, waited), MAX))
                .isEqualTo(lease);
    }

    @Test
    void aMaximumShorterThanProcessingAfterIsRefusedAtStart() {
        assertThatThrownBy(() -> new RecoveryProperties(Duration.ofSeconds(30), Duration.ofMinutes(5),
                Duration.ofHours(24), Duration.ofSeconds(5), 20, Duration.ofHours(1), Duration.ofSeconds(5),
                Duration.ofMinutes(1)))
                .hasMessageContaining("payments.recovery.reconcile-backoff-max");
    }
}
