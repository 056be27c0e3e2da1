package com.payorch.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.payorch.testsupport.ApiTest;
import com.payorch.testsupport.FakeSmtpServer;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

/**
 * A mail server that accepts the connection and never answers stalls the confirmation being sent, and nothing
 * else: payments still complete through the sandbox's settlement and webhooks, recovery still resubmits, expired
 * idempotency keys are still deleted. Its own schema keeps other test contexts' jobs away from its rows.
 */
@TestPropertySource(properties = {
        "payments.gateway.sandbox.webhooks=auto",
        "payments.gateway.sandbox.webhook-delay=PT0.2S",
        "payments.gateway.sandbox.poll-interval=PT0.1S",
        "payments.recovery.pending-after=PT1S",
        "payments.recovery.interval=PT0.2S",
        "payments.idempotency.cleanup-interval=PT0.2S",
        "spring.mail.host=127.0.0.1",
        // The hang must outlast the test: JavaMail waits this long for the greeting that never comes.
        "spring.mail.properties.mail.smtp.connectiontimeout=120000",
        "spring.mail.properties.mail.smtp.timeout=120000",
        "spring.r2dbc.properties.schema=" + HungSmtpServerIT.SCHEMA,
        "spring.flyway.schemas=" + HungSmtpServerIT.SCHEMA,
        "spring.flyway.default-schema=" + HungSmtpServerIT.SCHEMA})
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class HungSmtpServerIT extends ApiTest {

    static final String SCHEMA = "hung_smtp_tests";
    private static final FakeSmtpServer smtp = FakeSmtpServer.silent();
    private static final Duration WAIT = Duration.ofSeconds(15);

    @DynamicPropertySource
    static void mailServer(DynamicPropertyRegistry registry) {
        registry.add("spring.mail.port", smtp::port);
    }

    @AfterAll
    static void closeMailServer() {
        smtp.close();
    }

    @Test
    void aHungMailServerStallsNeitherPaymentsNorRecoveryNorCleanup() {
        String hungBooking = unique("bk");
        String hung = createPaymentWithEmail(hungBooking, "guest+" + hungBooking + "@example.com");
        await().atMost(WAIT).until(() -> "COMPLETED".equals(statusOf(hung)));
        // The confirmation of that booking is now being sent to a server that never answers.
        await().atMost(WAIT).until(() -> smtp.connectionCount() >= 1);

        String completes = createPaymentWithEmail(unique("bk"), null);
        // The gateway cannot be reached for this one: it stays PENDING and recovery tries it again and again.
        String unreachable = createPayment(unique("bk"), "pm_card_unavailable");
        String expiredKey = insertExpiredIdempotencyKey();

        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(statusOf(completes)).isEqualTo("COMPLETED");
            assertThat(count("select count(*) from idempotency_keys where idempotency_key = $1", expiredKey)).isZero();
        });
        // Recovery leases the payment for one pending-after (1 s) per try: a later lease is a later try.
        Instant firstTry = await().atMost(WAIT).until(() -> resubmitLeaseOf(unreachable), lease -> lease != null);
        await().atMost(WAIT).until(() -> resubmitLeaseOf(unreachable), lease -> lease.isAfter(firstTry));
        assertThat(statusOf(unreachable)).isEqualTo("PENDING");
        assertThat(count("select count(*) from events where booking_id = $1 and type = 'booking.confirmation_sent'",
                hungBooking)).isZero();
    }

    private String createPaymentWithEmail(String bookingId, String email) {
        String body = """
                {"bookingId": "%s", "amount": 12000, "currency": "JPY", "paymentMethod": "pm_card_ok"%s}"""
                .formatted(bookingId, email == null ? "" : ", \"customerEmail\": \"" + email + "\"");
        String location = postPayment(DEMO_KEY, unique("key"), body).exchange()
                .expectStatus().isCreated().expectBody().returnResult().getResponseHeaders().getLocation().toString();
        return location.substring("/v1/payments/".length());
    }

    private Instant resubmitLeaseOf(String paymentId) {
        return db.sql("select claimed_until from work_claims where kind = 'resubmit' and item_id = $1")
                .bind(0, paymentId).map(row -> row.get(0, Instant.class)).one().block(WAIT);
    }

    private String insertExpiredIdempotencyKey() {
        String key = unique("expired");
        db.sql("""
                        insert into idempotency_keys (merchant_id, idempotency_key, fingerprint, request_method,
                                                      request_path, recovery_point, created_at, expires_at)
                        values ('demo', $1, 'f', 'POST', '/v1/payments', 'STARTED', $2, now() - interval '1 hour')""")
                .bind(0, key).bind(1, Instant.now().minus(Duration.ofDays(2)))
                .then().block(WAIT);
        return key;
    }

}
