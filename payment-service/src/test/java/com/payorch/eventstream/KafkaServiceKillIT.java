package com.payorch.eventstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.payorch.testsupport.SchemaQueries;
import com.payorch.testsupport.ServiceInstances;
import com.payorch.testsupport.ServiceJvm;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * The service JVM is killed (SIGKILL) after it published events to Kafka and before it acknowledged them in the
 * outbox (the acknowledging UPDATE is held on a lock, then the JVM dies and its database session with it). Another
 * instance takes the events over when their lease ends and publishes them again: each such event arrives exactly
 * twice (at most once more), every other event once, nothing is lost, and a consumer that deduplicates on the
 * event-id header sees every payment's events once, in order.
 */
class KafkaServiceKillIT {

    private static final String SCHEMA = "kafka_kill_tests";
    private static final String TOPIC = "payments.events.kill";
    private static final long ACK_LOCK = 4_242_424L;
    private static final Duration WAIT = Duration.ofSeconds(90);

    private final EmbeddedKafkaKraftBroker broker = new EmbeddedKafkaKraftBroker(1, 3, TOPIC);
    private final SchemaQueries queries = new SchemaQueries(SCHEMA);
    private ServiceJvm killed;
    private ServiceInstances successor;

    @AfterEach
    void stopAll() {
        if (killed != null) {
            killed.close();
        }
        if (successor != null) {
            successor.close();
        }
        broker.destroy();
    }

    @Test
    void aServiceKilledBetweenPublishingAndAcknowledgingPublishesAgainAtMostOnceAndLosesNothing() throws Exception {
        broker.afterPropertiesSet();
        List<String> settings = List.of(
                "--payments.events.kafka.bootstrap-servers=" + broker.getBrokersAsString(),
                "--payments.events.kafka.topic=" + TOPIC,
                "--payments.events.kafka.send-timeout=PT4S",
                "--payments.outbox.delivery-timeout=PT5S",
                "--payments.outbox.lease=PT6S");
        killed = ServiceJvm.start(Path.of("target", "kafka-kill-service.log"), SCHEMA, settings);
        holdAcknowledgementsOnALock();

        try (EventStreamRecords received = new EventStreamRecords(broker, TOPIC, "kill-" + UUID.randomUUID());
             Connection lockHolder = queries.connect()) {
            try (Statement statement = lockHolder.createStatement()) {
                statement.execute("select pg_advisory_lock(" + ACK_LOCK + ")");
            }
            WebClient client = WebClient.builder().baseUrl(killed.baseUrl()).build();
            List<String> payments = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                payments.add(createPayment(client, "bk_kill_" + UUID.randomUUID().toString().substring(0, 8)));
            }
            // The relay's first batch is on Kafka and its acknowledgement waits for the lock (the relay with it: runs
            // never overlap, so later events wait in the outbox).
            await().atMost(WAIT).pollInSameThread().until(() -> {
                received.poll(Duration.ofMillis(200));
                return acknowledgementsWaiting() >= 1 && payments.stream().anyMatch(p -> !received.of(p).isEmpty());
            });
            received.poll(Duration.ofSeconds(1));
            List<String> publishedNotAcknowledged = payments.stream().flatMap(p -> received.of(p).stream()).toList();
            System.out.printf("%d events published, not acknowledged, when the service was killed%n",
                    publishedNotAcknowledged.size());

            killed.kill();
            killed.awaitExit(Duration.ofSeconds(30));
            terminateWaitingAcknowledgements(); // the dead JVM's session; its UPDATE must not commit afterwards
            try (Statement statement = lockHolder.createStatement()) {
                statement.execute("select pg_advisory_unlock(" + ACK_LOCK + ")");
                statement.execute("drop trigger hold_acknowledgement on events");
            }
            for (String eventId : publishedNotAcknowledged) {
                assertThat(queries.count("select count(*) from events where id = ? and dispatched_at is null"
                        + " and claimed_by is not null", eventId)).as(eventId).isEqualTo(1);
            }

            successor = ServiceInstances.start(1, SCHEMA, settings);
            Map<String, List<String>> written = new LinkedHashMap<>();
            for (String payment : payments) {
                written.put(payment, eventIdsOf(payment));
            }
            await().atMost(WAIT).pollInSameThread().until(() -> {
                received.poll(Duration.ofMillis(200));
                return payments.stream().allMatch(p -> received.deduplicated(p).size() == written.get(p).size());
            });
            received.poll(Duration.ofSeconds(1));

            for (String payment : payments) {
                List<String> arrivals = received.of(payment);
                assertThat(received.deduplicated(payment)).containsExactlyElementsOf(written.get(payment));
                assertThat(EventStreamRecords.inWrittenOrder(arrivals, written.get(payment))).as(arrivals.toString())
                        .isTrue();
                for (String eventId : written.get(payment)) {
                    long copies = arrivals.stream().filter(eventId::equals).count();
                    assertThat(copies).as("copies of %s", eventId)
                            .isEqualTo(publishedNotAcknowledged.contains(eventId) ? 2 : 1);
                    assertThat(queries.count("select count(*) from events where id = ? and dispatched_at is not null",
                            eventId)).isEqualTo(1);
                }
            }
        }
    }

    /** A trigger that makes the relay's acknowledgement (dispatched_at set) wait for advisory lock ACK_LOCK. */
    private void holdAcknowledgementsOnALock() throws Exception {
        try (Connection connection = queries.connect(); Statement statement = connection.createStatement()) {
            statement.execute("""
                    create function hold_acknowledgement() returns trigger language plpgsql as $$
                    begin
                        perform pg_advisory_xact_lock(%d);
                        return new;
                    end $$""".formatted(ACK_LOCK));
            statement.execute("""
                    create trigger hold_acknowledgement before update of dispatched_at on events for each row
                    when (old.dispatched_at is null and new.dispatched_at is not null)
                    execute function hold_acknowledgement()""");
        }
    }

    private long acknowledgementsWaiting() {
        return queries.count("select count(*) from pg_locks where locktype = 'advisory' and not granted"
                + " and objid = ?", (int) ACK_LOCK);
    }

    private void terminateWaitingAcknowledgements() {
        assertThat(queries.count("select count(*) from (select pg_terminate_backend(pid) from pg_locks"
                + " where locktype = 'advisory' and not granted and objid = ?) t", (int) ACK_LOCK)).isPositive();
        await().atMost(WAIT).until(() -> acknowledgementsWaiting() == 0);
    }

    private List<String> eventIdsOf(String paymentId) throws Exception {
        try (Connection connection = queries.connect();
             PreparedStatement statement = connection.prepareStatement(
                     "select id from events where payment_id = ? order by seq")) {
            statement.setString(1, paymentId);
            List<String> ids = new ArrayList<>();
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    ids.add(rows.getString(1));
                }
            }
            return ids;
        }
    }

    private static String createPayment(WebClient client, String booking) {
        String body = """
                {"bookingId": "%s", "amount": 12000, "currency": "JPY", "paymentMethod": "pm_card_ok"}"""
                .formatted(booking);
        return client.post().uri("/v1/payments")
                .header("Authorization", "Bearer sk_test_demo")
                .header("Idempotency-Key", UUID.randomUUID().toString())
                .header("Content-Type", "application/json")
                .bodyValue(body)
                .retrieve()
                .bodyToMono(tools.jackson.databind.JsonNode.class)
                .map(json -> json.get("id").asText())
                .block(Duration.ofSeconds(30));
    }
}
