package com.payorch.eventstream;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.test.EmbeddedKafkaBroker;
import org.springframework.kafka.test.utils.KafkaTestUtils;

/**
 * A test consumer of the event topic, from its beginning, collecting the event ids (the event-id header) of each
 * payment (the record key) in the order the records arrived, duplicates in the topic included (records at different
 * offsets), as a downstream consumer sees them.
 */
final class EventStreamRecords implements AutoCloseable {

    private final Consumer<String, String> consumer;
    private final Map<String, List<String>> eventIdsByPayment = new ConcurrentHashMap<>();
    private final Map<String, Integer> partitionByPayment = new ConcurrentHashMap<>();
    private final Set<String> offsetsRead = ConcurrentHashMap.newKeySet();

    EventStreamRecords(EmbeddedKafkaBroker broker, String topic, String group) {
        Map<String, Object> props = KafkaTestUtils.consumerProps(broker, group, false);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        consumer = new DefaultKafkaConsumerFactory<>(props, new StringDeserializer(), new StringDeserializer())
                .createConsumer();
        broker.consumeFromAnEmbeddedTopic(consumer, topic);
    }

    /** Reads what arrived within `wait`; call it from one thread (a Kafka consumer is not thread-safe). */
    void poll(Duration wait) {
        for (ConsumerRecord<String, String> record : consumer.poll(wait)) {
            // This consumer commits no offsets: when the restarted broker makes it rejoin its group, it reads the
            // topic again from the beginning. A record read again is the same record (same partition and offset),
            // not a duplicate in the topic; only the latter count.
            if (!offsetsRead.add(record.partition() + ":" + record.offset())) {
                continue;
            }
            eventIdsByPayment.computeIfAbsent(record.key(), key -> new ArrayList<>()).add(eventId(record));
            Integer earlier = partitionByPayment.putIfAbsent(record.key(), record.partition());
            assertThat(earlier == null || earlier == record.partition())
                    .as("all records of payment %s on one partition", record.key()).isTrue();
        }
    }

    /** The event ids received for the payment, in arrival order, duplicates included. */
    List<String> of(String paymentId) {
        return List.copyOf(eventIdsByPayment.getOrDefault(paymentId, List.of()));
    }

    /** What a consumer that deduplicates on the event-id header keeps: first arrivals, in order. */
    List<String> deduplicated(String paymentId) {
        return List.copyOf(new LinkedHashSet<>(of(paymentId)));
    }

    /**
     * True when the arrivals, mapped to their position in `written`, never go back: per payment order held,
     * a redelivery can only repeat the latest event, never bring an earlier one after a later one.
     */
    static boolean inWrittenOrder(List<String> arrivals, List<String> written) {
        int last = -1;
        for (String id : arrivals) {
            int position = written.indexOf(id);
            if (position < last) {
                return false;
            }
            last = position;
        }
        return true;
    }

    static String eventId(ConsumerRecord<String, String> record) {
        Header header = record.headers().lastHeader(KafkaEventPublisher.EVENT_ID_HEADER);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        consumer.close();
    }
}
