package com.payorch.eventstream;

import com.payorch.events.Event;
import com.payorch.events.EventResource;
import com.payorch.events.EventType;
import com.payorch.outbox.OutboxConsumer;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.Set;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.springframework.core.Ordered;
import org.springframework.kafka.core.KafkaTemplate;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import tools.jackson.databind.ObjectMapper;

/**
 * The outbox consumer of every event type that publishes the event to the Kafka topic: key = payment id (the event
 * id for an event without one), header {@value #EVENT_ID_HEADER} = event id, header {@value #EVENT_TYPE_HEADER},
 * value = the event resource as {@code GET /v1/events} shows it. Completes only once the broker acknowledged the
 * record (acks=all), so a failed send fails the delivery and the relay retries it: at least once. Consumers of the
 * topic deduplicate on the event id.
 */
public class KafkaEventPublisher implements OutboxConsumer, Ordered {

    public static final String EVENT_ID_HEADER = "event-id";
    public static final String EVENT_TYPE_HEADER = "event-type";

    private final KafkaTemplate<String, String> template;
    private final String topic;
    private final ObjectMapper objectMapper;

    KafkaEventPublisher(KafkaTemplate<String, String> template, String topic, ObjectMapper objectMapper) {
        this.template = template;
        this.topic = topic;
        this.objectMapper = objectMapper;
    }

    @Override
    public EventType eventType() {
        return EventType.PAYMENT_CREATED;
    }

    @Override
    public Set<EventType> eventTypes() {
        return EnumSet.allOf(EventType.class);
    }

    /** Last among an event's consumers, so a Kafka outage does not hold up the in-process ones (e-mails, webhooks). */
    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }

    @Override
    public Mono<Void> deliver(Event event) {
        return Mono.fromCallable(() -> record(event))
                // send() may block up to send-timeout waiting for metadata: never on an event-loop thread.
                .flatMap(record -> Mono.fromFuture(() -> template.send(record)))
                .subscribeOn(Schedulers.boundedElastic())
                .then();
    }

    private ProducerRecord<String, String> record(Event event) {
        String key = event.paymentId() != null ? event.paymentId() : event.id();
        String value = objectMapper.writeValueAsString(EventResource.of(event, objectMapper));
        ProducerRecord<String, String> record = new ProducerRecord<>(topic, key, value);
        record.headers().add(EVENT_ID_HEADER, event.id().getBytes(StandardCharsets.UTF_8));
        record.headers().add(EVENT_TYPE_HEADER, event.type().value().getBytes(StandardCharsets.UTF_8));
        return record;
    }
}
