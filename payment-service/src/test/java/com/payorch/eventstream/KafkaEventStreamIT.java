package com.payorch.eventstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.doAnswer;

import com.payorch.events.Event;
import com.payorch.testsupport.OutboxApiTest;
import com.payorch.testsupport.OwnSchema;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.test.EmbeddedKafkaBroker;
import org.springframework.kafka.test.context.EmbeddedKafka;
import org.springframework.kafka.test.utils.KafkaTestUtils;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.context.bean.override.mockito.MockitoSpyBean;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * With payments.events.kafka.bootstrap-servers set, every event reaches the topic (an in-process KRaft broker): one
 * record per event, key = payment id, the event id in a header, the event resource as value, in each payment's
 * order; a send that fails is retried by the outbox relay and nothing is lost, nor overtaken.
 */
@OwnSchema("kafka_stream_tests")
@EmbeddedKafka(partitions = 3, topics = KafkaEventStreamIT.TOPIC)
@TestPropertySource(properties = {
        "payments.events.kafka.bootstrap-servers=${spring.embedded.kafka.brokers}",
        "payments.events.kafka.topic=" + KafkaEventStreamIT.TOPIC,
        "payments.outbox.initial-backoff=PT0.05S",
        "payments.outbox.max-backoff=PT0.2S"})
class KafkaEventStreamIT extends OutboxApiTest {

    static final String TOPIC = "payments.events.test";
    private static final Duration WAIT = Duration.ofSeconds(30);

    /** "bookingId/type" of events whose next send fails (as a broker outage would), once each. */
    private static final Set<String> FAIL_NEXT_SEND = ConcurrentHashMap.newKeySet();

    @MockitoSpyBean
    private KafkaTemplate<String, String> template;

    @Autowired
    private EmbeddedKafkaBroker broker;

    @Autowired
    private ObjectMapper objectMapper;

    private Consumer<String, String> consumer;
    private final AtomicInteger failedSends = new AtomicInteger();

    @BeforeEach
    void consumerAndFaults() {
        Map<String, Object> props = KafkaTestUtils.consumerProps(broker, unique("test"), false);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        consumer = new DefaultKafkaConsumerFactory<>(props, new StringDeserializer(), new StringDeserializer())
                .createConsumer();
        broker.consumeFromAnEmbeddedTopic(consumer, TOPIC);
        doAnswer(invocation -> {
            ProducerRecord<String, String> record = invocation.getArgument(0);
            String type = header(record.headers().lastHeader(KafkaEventPublisher.EVENT_TYPE_HEADER));
            String booking = objectMapper.readTree(record.value()).get("bookingId").asText();
            if (FAIL_NEXT_SEND.remove(booking + "/" + type)) {
                failedSends.incrementAndGet();
                return CompletableFuture.failedFuture(new KafkaException("simulated broker outage"));
            }
            return invocation.callRealMethod();
        }).when(template).send(any(ProducerRecord.class));
    }

    @AfterEach
    void closeConsumer() {
        consumer.close();
    }

    @Test
    void everyEventIsPublishedOnceInItsPaymentsOrderEvenWhenASendFails() {
        List<String> payments = new ArrayList<>();
        Map<String, List<String>> written = new java.util.LinkedHashMap<>();
        for (int i = 0; i < 3; i++) {
            String booking = unique("bk");
            if (i == 1) {
                // The second payment's first event fails once; the relay retries it, and its later events wait.
                FAIL_NEXT_SEND.add(booking + "/payment.created");
            }
            String payment = createPaymentWithEmail(booking, null);
            payments.add(payment);
            appendBookingActivated(payment, booking);
        }
        for (String payment : payments) {
            written.put(payment, events.find("demo", payment, null, null).map(Event::id).collectList().block(WAIT));
        }
        assertThat(written.values()).allSatisfy(ids -> assertThat(ids).hasSize(3));   // created, processing, activated

        Map<String, List<ConsumerRecord<String, String>>> received = new ConcurrentHashMap<>();
        long started = System.nanoTime();
        await().atMost(WAIT).pollInSameThread().until(() -> {
            for (ConsumerRecord<String, String> record : KafkaTestUtils.getRecords(consumer, Duration.ofMillis(200))) {
                if (written.containsKey(record.key())) {
                    received.computeIfAbsent(record.key(), key -> new ArrayList<>()).add(record);
                }
            }
            return payments.stream().allMatch(p -> received.getOrDefault(p, List.of()).size() >= 3);
        });
        System.out.printf("9 events on Kafka in %d ms%n", (System.nanoTime() - started) / 1_000_000);

        assertThat(failedSends.get()).isEqualTo(1);
        for (String payment : payments) {
            List<ConsumerRecord<String, String>> records = received.get(payment);
            // One record per event, in the order the events were written, all on one partition.
            assertThat(records).extracting(r -> header(r.headers().lastHeader(KafkaEventPublisher.EVENT_ID_HEADER)))
                    .containsExactlyElementsOf(written.get(payment));
            assertThat(records).extracting(ConsumerRecord::partition).containsOnly(records.get(0).partition());
            for (ConsumerRecord<String, String> record : records) {
                JsonNode value = objectMapper.readTree(record.value());
                assertThat(value.get("id").asText())
                        .isEqualTo(header(record.headers().lastHeader(KafkaEventPublisher.EVENT_ID_HEADER)));
                assertThat(value.get("paymentId").asText()).isEqualTo(payment);
                assertThat(value.get("type").asText())
                        .isEqualTo(header(record.headers().lastHeader(KafkaEventPublisher.EVENT_TYPE_HEADER)));
                assertThat(value.has("data")).isTrue();
            }
            assertThat(written.get(payment)).allSatisfy(id -> assertThat(eventRow(id).dispatched()).isTrue());
        }
        String retried = written.get(payments.get(1)).get(0);
        assertThat(eventRow(retried).attempts()).isEqualTo(2);
        assertThat(eventRow(retried).lastError()).isEqualTo("KafkaException: simulated broker outage");
    }

    private static String header(Header header) {
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
