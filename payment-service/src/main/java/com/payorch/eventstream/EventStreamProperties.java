package com.payorch.eventstream;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code payments.events.kafka.*}: the optional Kafka event stream.
 *
 * @param bootstrapServers The Kafka brokers (host:port, comma-separated). Unset (the default): no event stream, no
 *                         Kafka client is created. Set: every event is also published to the topic.
 * @param topic            The topic every event is published to, keyed by its payment id.
 * @param sendTimeout      How long one publication may take, metadata wait and broker acknowledgement included,
 *                         before it counts as failed and the outbox relay retries it with backoff; keep it shorter
 *                         than payments.outbox.delivery-timeout.
 */
@ConfigurationProperties("payments.events.kafka")
public record EventStreamProperties(String bootstrapServers,
                                    @DefaultValue("payments.events") String topic,
                                    @DefaultValue("PT20S") Duration sendTimeout) {

    public EventStreamProperties {
        bootstrapServers = bootstrapServers == null || bootstrapServers.isBlank() ? null : bootstrapServers.trim();
        if (topic == null || topic.isBlank()) {
            throw new IllegalArgumentException("payments.events.kafka.topic must not be blank");
        }
        if (sendTimeout.isNegative() || sendTimeout.isZero()) {
            throw new IllegalArgumentException("payments.events.kafka.send-timeout must be positive");
        }
    }
}
