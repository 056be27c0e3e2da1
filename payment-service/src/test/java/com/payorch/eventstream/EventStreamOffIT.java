package com.payorch.eventstream;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.testsupport.ApiTest;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.core.ProducerFactory;

/** Without payments.events.kafka.bootstrap-servers (the default) there is no Kafka bean at all: no broker needed. */
class EventStreamOffIT extends ApiTest {

    @Autowired
    private ApplicationContext context;

    @Test
    void noKafkaBeanWithoutBootstrapServers() {
        assertThat(context.getBeansOfType(KafkaTemplate.class)).isEmpty();
        assertThat(context.getBeansOfType(ProducerFactory.class)).isEmpty();
        assertThat(context.getBeansOfType(KafkaEventPublisher.class)).isEmpty();
        assertThat(context.getBean(EventStreamProperties.class).bootstrapServers()).isNull();
        assertThat(context.getBean(EventStreamProperties.class).topic()).isEqualTo("payments.events");
    }
}
