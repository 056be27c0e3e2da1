package com.payorch.confirmations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.payorch.events.Event;
import com.payorch.events.EventStore;
import com.payorch.events.EventType;
import com.payorch.support.Timestamps;
import com.payorch.testsupport.ApiTest;
import com.payorch.testsupport.FakeSmtpServer;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.transaction.reactive.TransactionalOperator;

/**
 * The fault campaign's duplicate confirmation (docs/reliability.md): the mail server accepts the e-mail while
 * PostgreSQL is down, so the first attempt to record it fails. The e-mail cannot be taken back, so the service must
 * record it once the database is back (within the claim), and the relay's redeliveries of booking.activated must
 * then find it sent: one e-mail, one booking.confirmation_sent. Before the fix the recording gave up at the first
 * error, the claim ran out and a redelivery sent the e-mail a second time.
 *
 * <p>Runs its own embedded PostgreSQL (as {@code web.DatabaseRestartIT} does) and stops and restarts it on the
 * same data directory and port; the mail server holds its answer to the message's data until the database is down.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "payments.merchants.demo.api-key=" + DatabaseOutageAfterSmtpAcceptanceIT.API_KEY,
        // application.yml's development console user, with a password of this test's own (external database)
        "payments.console.users.operator.password-bcrypt=" + ApiTest.DEMO_ONLY_BCRYPT,
        "payments.gateway.sandbox.webhooks=off",
        // The sandbox route on an external (throwaway) database: a development default, accepted knowingly.
        "payments.allow-development-defaults=true",
        "payments.gateway.sandbox.webhook-secret=" + ApiTest.WEBHOOK_SECRET,
        "spring.mail.host=127.0.0.1",
        // The relay stops waiting for the held send and tries booking.activated again every fraction of a second,
        // never parking it, so a second send after the claim ran out would happen (and show) within this test.
        "payments.outbox.delivery-timeout=PT1S",
        "payments.outbox.lease=PT3S",
        "payments.outbox.initial-backoff=PT0.2S",
        "payments.outbox.max-backoff=PT0.5S",
        "payments.outbox.max-attempts=1000",
        // As in the campaign, far below the default (2 min): the old behaviour's second e-mail comes ~15 s in.
        "payments.confirmations.claim-timeout=PT15S",
        "server.shutdown=immediate"
})
@DirtiesContext
class DatabaseOutageAfterSmtpAcceptanceIT {

    static final String API_KEY = "sk_test_mail_outage";

    private static final Path DATA_DIR = createDataDir();
    private static EmbeddedPostgres postgres = start(0);
    private static final int DB_PORT = postgres.getPort();
    private static final FakeSmtpServer smtp = FakeSmtpServer.held();

    @LocalServerPort
    int port;

    @Autowired
    EventStore events;

    @Autowired
    TransactionalOperator transaction;

    @DynamicPropertySource
    static void databaseAndMailServer(DynamicPropertyRegistry registry) {
        registry.add("spring.r2dbc.url", () -> "r2dbc:postgresql://localhost:" + DB_PORT + "/postgres");
        registry.add("spring.r2dbc.username", () -> "postgres");
        registry.add("spring.r2dbc.password", () -> "");
        registry.add("spring.flyway.url", () -> "jdbc:postgresql://localhost:" + DB_PORT + "/postgres");
        registry.add("spring.flyway.user", () -> "postgres");
        registry.add("spring.flyway.password", () -> "");
        registry.add("payments.db.embedded", () -> "false");
        registry.add("spring.mail.port", smtp::port);
    }

    @AfterAll
    static void stopDatabaseAndMailServer() throws IOException {
        smtp.close();
        postgres.close();
        org.springframework.util.FileSystemUtils.deleteRecursively(DATA_DIR);
    }

    @Test
    void anEmailAcceptedWhileTheDatabaseIsDownIsRecordedAfterItsRestartAndNotSentAgain() throws Exception {
        String booking = "bk_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
        String payment = createPayment(booking, "guest_" + booking + "@example.com");

        Event activated = appendBookingActivated(payment, booking);

        // The confirmation is claimed and its data is at the mail server, which has not answered yet.
        await().atMost(Duration.ofSeconds(20)).until(() -> smtp.messagesReceived() == 1);
        assertThat(smtp.acceptedMessages()).isEmpty();

        postgres.close();
        smtp.answerHeldMessages();
        // The send returned (the client ended its session after the "250"): the service now records it, and the
        // database is away. Restarting takes PostgreSQL far longer than reaching the first recording attempt.
        await().atMost(Duration.ofSeconds(10)).until(() -> smtp.sessionsEnded() == 1);
        assertThat(smtp.acceptedContaining(booking)).isEqualTo(1);

        postgres = start(DB_PORT);

        // booking.activated is dispatched only by a delivery that finds the confirmation recorded (or that records
        // it): before the fix, only the redelivery after the claim ran out (~15 s), which sent a second e-mail.
        await().atMost(Duration.ofSeconds(40)).until(() -> dispatched(activated.id()));
        assertThat(count("select count(*) from booking_confirmations where booking_id = ? and sent_at is not null",
                booking)).as("the confirmation is marked sent").isEqualTo(1);
        assertThat(count("select count(*) from events where booking_id = ? and type = 'booking.confirmation_sent'",
                booking)).as("booking.confirmation_sent events").isEqualTo(1);
        assertThat(smtp.acceptedContaining(booking)).as("e-mails accepted by the mail server").isEqualTo(1);
        assertThat(smtp.messagesReceived()).as("e-mails handed to the mail server").isEqualTo(1);
    }

    private String createPayment(String booking, String email) {
        String body = """
                {"bookingId": "%s", "amount": 12000, "currency": "JPY", "paymentMethod": "pm_card_ok",
                 "customerEmail": "%s", "description": "Room 101, 2 nights"}""".formatted(booking, email);
        String location = WebTestClient.bindToServer().baseUrl("http://localhost:" + port)
                .responseTimeout(Duration.ofSeconds(30)).build()
                .post().uri("/v1/payments")
                .header("Authorization", "Bearer " + API_KEY)
                .header("Idempotency-Key", "key_" + booking)
                .header("Content-Type", "application/json")
                .bodyValue(body)
                .exchange()
                .expectStatus().isCreated()
                .expectBody().returnResult().getResponseHeaders().getLocation().toString();
        return location.substring("/v1/payments/".length());
    }

    /** As the COMPLETED transition writes it (the sandbox sends no webhooks here, so no payment completes). */
    private Event appendBookingActivated(String payment, String booking) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        return events.append("demo", EventType.BOOKING_ACTIVATED, payment, booking,
                        Map.of("bookingId", booking, "paymentId", payment, "activatedAt", Timestamps.format(now)), now)
                .as(transaction::transactional)
                .block(Duration.ofSeconds(10));
    }

    private static boolean dispatched(String eventId) throws SQLException {
        return count("select count(*) from events where id = ? and dispatched_at is not null", eventId) == 1;
    }

    private static long count(String sql, String parameter) throws SQLException {
        try (Connection connection = postgres.getPostgresDatabase().getConnection();
             PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setString(1, parameter);
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    private static Path createDataDir() {
        try {
            return Files.createTempDirectory("payments-mail-outage-test-postgres");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** zonky's PostgreSQL on this test's data directory; port 0 picks a free one, the restart reuses it. */
    private static EmbeddedPostgres start(int port) {
        try {
            EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                    .setDataDirectory(DATA_DIR)
                    .setCleanDataDirectory(false);
            if (port > 0) {
                builder.setPort(port);
            }
            return builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start this test's PostgreSQL", e);
        }
    }
}
