package com.payorch.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

class OutboxPropertiesTest {

    private final OutboxProperties defaults = bind(Map.of());

    @Test
    void defaultsLiveInCode() {
        assertThat(defaults.pollInterval()).isEqualTo(Duration.ofMillis(200));
        assertThat(defaults.batchSize()).isEqualTo(50);
        assertThat(defaults.concurrency()).isEqualTo(4);
        assertThat(defaults.lease()).isEqualTo(Duration.ofMinutes(1));
        assertThat(defaults.initialBackoff()).isEqualTo(Duration.ofSeconds(1));
        assertThat(defaults.maxBackoff()).isEqualTo(Duration.ofMinutes(5));
        assertThat(defaults.backlogRefresh()).isEqualTo(Duration.ofSeconds(10));
        assertThat(defaults.deliveryTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(defaults.maxAttempts()).isEqualTo(20);
    }

    @Test
    void maxAttemptsBelowOneStopsTheStart() {
        assertThatThrownBy(() -> bind(Map.of("payments.outbox.max-attempts", "0")))
                .isInstanceOf(BindException.class)
                .rootCause().hasMessageContaining("payments.outbox.max-attempts");
        assertThat(bind(Map.of("payments.outbox.max-attempts", "3")).maxAttempts()).isEqualTo(3);
    }

    @Test
    void aLeaseNotLongerThanTheDeliveryTimeoutStopsTheStart() {
        assertThatThrownBy(() -> bind(Map.of("payments.outbox.lease", "PT30S")))
                .isInstanceOf(BindException.class)
                .rootCause().hasMessageStartingWith("payments.outbox.lease (PT30S) must be longer than"
                        + " payments.outbox.delivery-timeout (PT30S)");
        assertThatThrownBy(() -> bind(Map.of("payments.outbox.lease", "PT1M", "payments.outbox.delivery-timeout", "PT2M")))
                .isInstanceOf(BindException.class)
                .rootCause().hasMessageContaining("payments.outbox.lease (PT1M) must be longer than");
        assertThat(bind(Map.of("payments.outbox.lease", "PT5S", "payments.outbox.delivery-timeout", "PT4S")).lease())
                .isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void aBatchSizeOrConcurrencyBelowOneStopsTheStart() {
        assertThatThrownBy(() -> bind(Map.of("payments.outbox.batch-size", "0")))
                .isInstanceOf(BindException.class).rootCause().hasMessageContaining("payments.outbox.batch-size");
        assertThatThrownBy(() -> bind(Map.of("payments.outbox.concurrency", "-1")))
                .isInstanceOf(BindException.class).rootCause().hasMessageContaining("payments.outbox.concurrency");
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

    private static OutboxProperties bind(Map<String, String> values) {
        return new Binder(new MapConfigurationPropertySource(values))
                .bindOrCreate("payments.outbox", OutboxProperties.class);
    }
}
