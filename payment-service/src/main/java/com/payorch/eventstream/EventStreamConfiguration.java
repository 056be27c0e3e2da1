package com.payorch.eventstream;

import io.micrometer.core.instrument.MeterRegistry;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringSerializer;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.core.MicrometerProducerListener;
import org.springframework.kafka.core.ProducerFactory;
import org.springframework.kafka.support.ProducerListener;
import tools.jackson.databind.ObjectMapper;

/**
 * The Kafka event stream, only with {@code payments.events.kafka.bootstrap-servers} set. Boot's own Kafka
 * auto-configuration is excluded (application.yml), so without the key no Kafka bean exists at all.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(prefix = "payments.events.kafka", name = "bootstrap-servers")
class EventStreamConfiguration {

    @Bean(destroyMethod = "destroy")
    DefaultKafkaProducerFactory<String, String> eventStreamProducerFactory(EventStreamProperties properties,
                                                                           MeterRegistry meters) {
        int sendMillis = (int) Math.min(Integer.MAX_VALUE, properties.sendTimeout().toMillis());
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, properties.bootstrapServers());
        config.put(ProducerConfig.CLIENT_ID_CONFIG, "payment-service-events");
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        // Idempotent: a retry inside the producer writes no duplicate and keeps the per-partition order.
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 5);
        config.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        // Bounded: a send (metadata wait included) ends within send-timeout, inside the relay's delivery-timeout.
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, sendMillis);
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, sendMillis);
        config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, Math.max(1, sendMillis - 10));
        DefaultKafkaProducerFactory<String, String> factory = new DefaultKafkaProducerFactory<>(config);
        factory.addListener(new MicrometerProducerListener<>(meters));
        return factory;
    }

    @Bean
    KafkaTemplate<String, String> eventStreamKafkaTemplate(ProducerFactory<String, String> eventStreamProducerFactory) {
        KafkaTemplate<String, String> template = new KafkaTemplate<>(eventStreamProducerFactory);
        // Not the default LoggingProducerListener: it logs every failed send at ERROR with a stack trace and the
        // record's key and payload (payment data). The outbox relay logs a one-line warning and keeps the error in
        // events.last_error; the producer's metrics count failures.
        template.setProducerListener(new ProducerListener<>() {
        });
        return template;
    }

    @Bean
    KafkaEventPublisher kafkaEventPublisher(KafkaTemplate<String, String> eventStreamKafkaTemplate,
                                            EventStreamProperties properties, ObjectMapper objectMapper) {
        return new KafkaEventPublisher(eventStreamKafkaTemplate, properties.topic(), objectMapper);
    }
}
