package com.payorch.eventstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

class EventStreamPropertiesTest {

    @Test
    void defaultsLiveInCode() {
        EventStreamProperties defaults = bind(Map.of());
        assertThat(defaults.bootstrapServers()).isNull();
        assertThat(defaults.topic()).isEqualTo("payments.events");
        assertThat(defaults.sendTimeout()).isEqualTo(Duration.ofSeconds(20));
    }

    @Test
    void aBlankBootstrapServersIsUnset() {
        assertThat(bind(Map.of("payments.events.kafka.bootstrap-servers", "  ")).bootstrapServers()).isNull();
        assertThat(bind(Map.of("payments.events.kafka.bootstrap-servers", " k1:9092,k2:9092 ")).bootstrapServers())
                .isEqualTo("k1:9092,k2:9092");
    }

    @Test
    void valuesThatCannotWorkStopTheStart() {
        assertThatThrownBy(() -> bind(Map.of("payments.events.kafka.topic", " ")))
                .isInstanceOf(BindException.class).rootCause().hasMessageContaining("payments.events.kafka.topic");
        assertThatThrownBy(() -> bind(Map.of("payments.events.kafka.send-timeout", "PT0S")))
                .isInstanceOf(BindException.class).rootCause()
                .hasMessageContaining("payments.events.kafka.send-timeout");
    }

    private static EventStreamProperties bind(Map<String, String> values) {
        return new Binder(new MapConfigurationPropertySource(values))
                .bindOrCreate("payments.events.kafka", EventStreamProperties.class);
    }
}
