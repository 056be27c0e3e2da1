package com.payorch.eventstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.payorch.events.Event;
import com.payorch.testsupport.OutboxApiTest;
import com.payorch.testsupport.OwnSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import kafka.server.BrokerServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The broker goes down while events are produced and comes back on the same port and log directory (the same
 * broker process restarted, its partitions and offsets kept): events written meanwhile stay in the outbox,
 * undispatched, and are retried; after the restart every event is on the topic, none lost, each payment's in the
 * order written. The outage is logged as one-line warnings, no payload and no stack trace.
 */
@OwnSchema("kafka_restart_tests")
@ExtendWith(OutputCaptureExtension.class)
class KafkaBrokerRestartIT extends OutboxApiTest {

    static final String TOPIC = "payments.events.restart";
    private static final Duration WAIT = Duration.ofSeconds(60);
    /** Started before the Spring context, on a fixed port so that the restarted broker is where the producer looks. */
    private static final EmbeddedKafkaKraftBroker BROKER = startBroker();

    private static EmbeddedKafkaKraftBroker startBroker() {
        EmbeddedKafkaKraftBroker broker = new EmbeddedKafkaKraftBroker(1, 3, TOPIC).kafkaPorts(freePort());
        broker.afterPropertiesSet();
        return broker;
    }

    @DynamicPropertySource
    static void kafka(DynamicPropertyRegistry registry) {
        registry.add("payments.events.kafka.bootstrap-servers", BROKER::getBrokersAsString);
        registry.add("payments.events.kafka.topic", () -> TOPIC);
        registry.add("payments.events.kafka.send-timeout", () -> "PT2S");
        registry.add("payments.outbox.initial-backoff", () -> "PT0.1S");
        registry.add("payments.outbox.max-backoff", () -> "PT0.5S");
    }

    @AfterAll
    static void stopBroker() {
        BROKER.destroy();
    }

    @Test
    void eventsWrittenWhileTheBrokerIsDownArriveAfterItsRestartNoneLostInOrder(CapturedOutput output) {
        Map<String, List<String>> written = new LinkedHashMap<>();
        try (EventStreamRecords received = new EventStreamRecords(BROKER, TOPIC, unique("restart"))) {
            List<String> before = createPayments(3, written);
            await().atMost(WAIT).pollInSameThread().until(() -> {
                received.poll(Duration.ofMillis(200));
                return before.stream().allMatch(p -> received.of(p).size() >= 3);
            });

            BrokerServer broker = BROKER.getCluster().brokers().values().iterator().next();
            broker.shutdown();
            broker.awaitShutdown();
            long down = System.nanoTime();
            List<String> during = createPayments(3, written);
            // Sends fail (send-timeout) and are retried: the events stay in the outbox, none marked dispatched.
            await().atMost(WAIT).until(() -> during.stream().anyMatch(p -> eventRow(written.get(p).get(0)).attempts() >= 2));
            assertThat(during).allSatisfy(p -> assertThat(written.get(p))
                    .allSatisfy(id -> assertThat(eventRow(id).dispatched()).isFalse()));
            assertThat(eventRow(written.get(during.get(0)).get(0)).lastError()).isNotBlank();

            broker.startup();
            System.out.printf("broker down for %d ms%n", (System.nanoTime() - down) / 1_000_000);
            List<String> after = createPayments(2, written);
            List<String> all = new ArrayList<>(written.keySet());
            await().atMost(WAIT).pollInSameThread().until(() -> {
                received.poll(Duration.ofMillis(200));
                return all.stream().allMatch(p -> received.deduplicated(p).size() >= 3);
            });
            // Late duplicates, if any, have had their chance to arrive.
            received.poll(Duration.ofSeconds(1));

            int duplicates = 0;
            for (String payment : all) {
                assertThat(received.deduplicated(payment)).as(payment).containsExactlyElementsOf(written.get(payment));
                assertThat(EventStreamRecords.inWrittenOrder(received.of(payment), written.get(payment)))
                        .as("%s arrived as %s", payment, received.of(payment)).isTrue();
                assertThat(written.get(payment)).allSatisfy(id -> assertThat(eventRow(id).dispatched()).isTrue());
                duplicates += received.of(payment).size() - written.get(payment).size();
            }
            System.out.printf("%d events of %d payments after a broker restart, %d duplicates; %d payments after%n",
                    written.values().stream().mapToInt(List::size).sum(), all.size(), duplicates, after.size());
            // Before the outage nothing was retried: exactly one record per event.
            assertThat(before).allSatisfy(p -> assertThat(received.of(p)).hasSize(3));
            // The outage is logged as the relay's one-line warnings, without payloads or stack traces.
            assertThat(output.getOut()).contains("Delivery of event").doesNotContain("payload=", "LoggingProducerListener");
        }
    }

    /** Payments with three events each (created, processing, booking.activated), their event ids in `written`. */
    private List<String> createPayments(int count, Map<String, List<String>> written) {
        List<String> payments = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String booking = unique("bk");
            String payment = createPaymentWithEmail(booking, null);
            appendBookingActivated(payment, booking);
            written.put(payment, events.find("demo", payment, null, null).map(Event::id).collectList().block(WAIT));
            assertThat(written.get(payment)).hasSize(3);
            payments.add(payment);
        }
        return payments;
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
