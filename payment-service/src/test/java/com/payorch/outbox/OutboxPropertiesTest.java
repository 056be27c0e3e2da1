package com.payorch.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class OutboxPropertiesTest {

    private final OutboxProperties defaults = new OutboxProperties(null, 0, 0, null, null, null, null);

    @Test
    void defaultsLiveInCode() {
        assertThat(defaults.pollInterval()).isEqualTo(Duration.ofMillis(200));
        assertThat(defaults.batchSize()).isEqualTo(50);
        assertThat(defaults.concurrency()).isEqualTo(4);
        assertThat(defaults.lease()).isEqualTo(Duration.ofMinutes(1));
        assertThat(defaults.maxBackoff()).isEqualTo(Duration.ofMinutes(5));
    }

    @Test
    void backoffDoublesPerAttemptUpToTheCap() {
        assertThat(defaults.backoffAfter(1)).isEqualTo(Duration.ofSeconds(1));
        assertThat(defaults.backoffAfter(2)).isEqualTo(Duration.ofSeconds(2));
        assertThat(defaults.backoffAfter(5)).isEqualTo(Duration.ofSeconds(16));
        assertThat(defaults.backoffAfter(9)).isEqualTo(Duration.ofSeconds(256));
        assertThat(defaults.backoffAfter(10)).isEqualTo(Duration.ofMinutes(5));
        assertThat(defaults.backoffAfter(Integer.MAX_VALUE)).isEqualTo(Duration.ofMinutes(5));
    }

    @Test
    void errorSummariesAreShort() {
        String summary = OutboxRelay.summary(new IllegalStateException("x".repeat(2000)));
        assertThat(summary).startsWith("IllegalStateException: x").hasSize(500);
    }
}
