package com.payorch.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** How long a look of the hold recovery leaves a capture or cancel without an outcome alone. */
class HoldLeaseTest {

    @ParameterizedTest(name = "unchanged for {0}: {1}")
    @CsvSource(textBlock = """
            PT10S, PT30S
            PT1M,  PT30S
            PT2M,  PT1M
            PT30M, PT15M
            PT4H,  PT1H
            """)
    void halfTheTimeSinceTheLastChangeAtLeastPendingAfterAtMostTheMaximum(Duration sinceChange, Duration lease) {
        assertThat(HoldRecovery.lease(sinceChange, Duration.ofSeconds(30), Duration.ofHours(1))).isEqualTo(lease);
    }
}
