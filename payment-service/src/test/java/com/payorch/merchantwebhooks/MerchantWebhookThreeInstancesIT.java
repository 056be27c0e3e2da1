package com.payorch.merchantwebhooks;

import com.payorch.testsupport.ServiceInstances;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.r2dbc.core.DatabaseClient;

/**
 * Three service instances share one database: their relays and delivery jobs claim side by side, and each event
 * reaches the merchant's receiver once (one attempt, one request), with a valid signature.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MerchantWebhookThreeInstancesIT {

    private static final String SECRET = "whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD";
    private static final String SCHEMA = "merchant_webhook_cluster_tests";

    private final MerchantWebhookReceiver receiver = new MerchantWebhookReceiver(SECRET, Duration.ofSeconds(1));
    private ServiceInstances instances;
    private DatabaseClient db;

    @BeforeAll
    void startThreeInstances() {
        instances = ServiceInstances.start(3, SCHEMA, List.of(
                "--payments.merchants.hooks.api-key=sk_test_hooks",
                "--payments.merchants.hooks.webhook-url=" + receiver.url(),
                "--payments.merchants.hooks.webhook-secret=" + SECRET,
                "--payments.merchant-webhooks.poll-interval=PT0.02S",
                "--payments.merchant-webhooks.batch-size=3",
                "--payments.outbox.poll-interval=PT0.02S"));
        db = instances.context(0).getBean(DatabaseClient.class);
    }

    @AfterAll
    void stop() {
        instances.close();
        receiver.stop();
    }

    @Test
    void eachEventIsDeliveredOnceAcrossThreeInstances() {
        String booking = "bk_" + UUID.randomUUID().toString().substring(0, 12);
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            ids.add("evt_" + UUID.randomUUID().toString().replace("-", ""));
        }
        // 60 events in one commit: all three instances' relays and delivery jobs find work at once
        db.sql("""
                        insert into events (id, merchant_id, type, booking_id, data, created_at)
                        select id, 'hooks', 'payment.failed', $2, '{}', now() from unnest($1::text[]) id""")
                .bind(0, ids.toArray(new String[0]))
                .bind(1, booking)
                .then().block(Duration.ofSeconds(10));

        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> db.sql(
                        "select count(*) from webhook_deliveries where status = 'succeeded' and event_id = any($1)")
                .bind(0, ids.toArray(new String[0])).map(row -> row.get(0, Long.class)).one()
                .block(Duration.ofSeconds(10)) == 60);

        Map<String, Long> requestsPerEvent = receiver.receivedFor(booking).stream()
                .collect(Collectors.groupingBy(MerchantWebhookReceiver.Received::webhookId, Collectors.counting()));
        assertThat(requestsPerEvent.keySet()).containsExactlyInAnyOrderElementsOf(ids);
        assertThat(requestsPerEvent.values()).containsOnly(1L);
        assertThat(receiver.receivedFor(booking)).allMatch(MerchantWebhookReceiver.Received::signatureValid);
        assertThat(db.sql("select count(*) from webhook_deliveries where event_id = any($1)")
                .bind(0, ids.toArray(new String[0])).map(row -> row.get(0, Long.class)).one()
                .block(Duration.ofSeconds(10))).isEqualTo(60);
    }
}
