package com.payorch.merchantwebhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.payorch.events.Event;
import com.payorch.events.EventStore;
import com.payorch.events.EventType;
import com.payorch.merchantwebhooks.MerchantWebhookReceiver.Behaviour;
import com.payorch.merchantwebhooks.MerchantWebhookReceiver.Received;
import com.payorch.testsupport.ApiTest;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;
import org.springframework.transaction.reactive.TransactionalOperator;

/**
 * Events pushed to a merchant's webhook-url, against a real HTTP receiver that verifies every signature with the
 * standardwebhooks library. Short backoffs and give-up time so retries are seen within seconds. Own schema: these
 * deliveries and their timing must not depend on other test contexts' relays.
 */
@TestPropertySource(properties = {
        "payments.merchants.hooks.api-key=" + MerchantWebhookIT.HOOKS_KEY,
        "payments.merchants.hooks.webhook-secret=" + MerchantWebhookIT.SECRET,
        "payments.merchant-webhooks.initial-backoff=PT0.2S",
        "payments.merchant-webhooks.max-backoff=PT1S",
        "payments.merchant-webhooks.timeout=PT1S",
        "payments.merchant-webhooks.lease=PT5S",
        "payments.merchant-webhooks.poll-interval=PT0.05S",
        "payments.merchant-webhooks.give-up-after=PT4S",
        "payments.merchant-webhooks.metrics-refresh=PT0.1S",
        "spring.r2dbc.properties.schema=" + MerchantWebhookIT.SCHEMA,
        "spring.flyway.schemas=" + MerchantWebhookIT.SCHEMA,
        "spring.flyway.default-schema=" + MerchantWebhookIT.SCHEMA
})
class MerchantWebhookIT extends ApiTest {

    static final String SCHEMA = "merchant_webhook_tests";
    static final String HOOKS_KEY = "sk_test_hooks";
    static final String SECRET = "whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD";
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final MerchantWebhookReceiver RECEIVER = new MerchantWebhookReceiver(SECRET, Duration.ofSeconds(3));

    @DynamicPropertySource
    static void receiver(DynamicPropertyRegistry registry) {
        registry.add("payments.merchants.hooks.webhook-url", RECEIVER::url);
    }

    @Autowired
    EventStore events;

    @Autowired
    TransactionalOperator transaction;

    @Autowired
    MeterRegistry meters;

    @Test
    void deliversEveryEventOfTheMerchantSignedWithTheEventResourceAsData() {
        String booking = unique("bk");
        String body = """
                {"bookingId": "%s", "amount": 12000, "currency": "JPY", "paymentMethod": "pm_card_ok",
                 "metadata": {"orderId": "o-1"}}""".formatted(booking);
        postPayment(HOOKS_KEY, unique("key"), body).exchange().expectStatus().isCreated();

        await().atMost(WAIT).until(() -> RECEIVER.receivedFor(booking).size() == 2);
        List<Received> received = RECEIVER.receivedFor(booking);
        assertThat(received).allMatch(Received::signatureValid);
        assertThat(received).extracting(Received::type)
                .containsExactlyInAnyOrder("payment.created", "payment.processing");

        Map<?, ?> listed = client.get().uri("/v1/events?bookingId=" + booking)
                .header("Authorization", "Bearer " + HOOKS_KEY).exchange()
                .expectStatus().isOk().expectBody(Map.class).returnResult().getResponseBody();
        for (Object item : (List<?>) listed.get("data")) {
            Map<?, ?> event = (Map<?, ?>) item;
            Received delivered = received.stream().filter(r -> r.webhookId().equals(event.get("id"))).findFirst()
                    .orElseThrow();
            // body: {"type": …, "data": <the event resource as GET /v1/events shows it>}, webhook-id = event id
            assertThat(delivered.body().path("type").asText()).isEqualTo(event.get("type"));
            assertThat(delivered.body().path("data").path("id").asText()).isEqualTo(event.get("id"));
            assertThat(delivered.body().path("data").path("data").path("metadata").path("orderId").asText())
                    .isEqualTo("o-1");
            assertThat(delivered.body().path("data").path("createdAt").asText()).isEqualTo(event.get("createdAt"));
            String eventId = (String) event.get("id");
            await().atMost(WAIT).until(() -> "succeeded".equals(delivery(eventId, 0).get("status")));
            Map<?, ?> attempt = delivery(eventId, 0);
            assertThat(attempt.get("id")).asString().startsWith("wd_");
            assertThat(attempt.get("attempt")).isEqualTo(1);
            assertThat(attempt.get("responseStatus")).isEqualTo(200);
            assertThat(attempt.get("error")).isNull();
        }
    }

    @Test
    void aMerchantWithoutWebhookUrlGetsNoDeliveryRows() {
        String paymentId = createPayment(unique("bk"), "pm_card_ok");
        // once the relay has dispatched the demo payment's events, every consumer (the planner too) has seen them
        await().atMost(WAIT).until(() -> count("select count(*) from events where payment_id = $1"
                + " and dispatched_at is null", paymentId) == 0);
        assertThat(count("select count(*) from events where payment_id = $1", paymentId)).isEqualTo(2);
        assertThat(count("select count(*) from webhook_deliveries where merchant_id = 'demo'")).isZero();
        String eventId = eventIdsOf(paymentId).get(0);
        client.post().uri("/v1/events/" + eventId + "/redeliver").header("Authorization", "Bearer " + DEMO_KEY)
                .exchange().expectStatus().isBadRequest()
                .expectBody().jsonPath("$.code").isEqualTo("invalid_request");
        assertThat(count("select count(*) from webhook_deliveries where merchant_id = 'demo'")).isZero();
    }

    @Test
    void nothingIsLostWhileTheReceiverIsDown() {
        String booking = unique("bk");
        RECEIVER.stop();
        Event event;
        try {
            event = append(booking);
            await().atMost(WAIT).until(() -> "failed".equals(delivery(event.id(), 0).get("status")));
            // undelivered for a while now: the gauge shows its age
            await().atMost(WAIT).until(() -> oldestUndelivered() > 0.2);
        } finally {
            RECEIVER.start();
        }
        await().atMost(WAIT).until(() -> !RECEIVER.receivedFor(booking).isEmpty());
        assertThat(RECEIVER.receivedFor(booking)).allMatch(Received::signatureValid)
                .allMatch(r -> r.webhookId().equals(event.id()));
        await().atMost(WAIT).until(() -> deliveries(event.id()).stream()
                .anyMatch(d -> "succeeded".equals(((Map<?, ?>) d).get("status"))));
        Map<String, Object> first = delivery(event.id(), 0);
        assertThat(first.get("responseStatus")).isNull();
        assertThat(first.get("error")).asString().isNotBlank().doesNotContain(SECRET);
    }

    @Test
    void a500IsRetriedWithTheSameWebhookId() {
        String booking = unique("bk");
        RECEIVER.behave(booking, Behaviour.FAIL_ONCE);
        Event event = append(booking);
        await().atMost(WAIT).until(() -> deliveries(event.id()).size() == 2
                && "succeeded".equals(delivery(event.id(), 1).get("status")));
        assertThat(delivery(event.id(), 0)).containsEntry("attempt", 1).containsEntry("status", "failed")
                .containsEntry("responseStatus", 500).containsEntry("error", "HTTP 500");
        assertThat(delivery(event.id(), 1)).containsEntry("attempt", 2).containsEntry("responseStatus", 200);
        assertThat(RECEIVER.receivedFor(booking)).hasSize(2).allMatch(Received::signatureValid)
                .allMatch(r -> r.webhookId().equals(event.id()));
        assertThat(RECEIVER.receivedFor(booking)).extracting(Received::answered).containsExactly(500, 200);
    }

    @Test
    void aReceiverSlowerThanTheTimeOutIsAFailedAttempt() {
        String booking = unique("bk");
        RECEIVER.behave(booking, Behaviour.SLOW_ONCE);
        Event event = append(booking);
        await().atMost(WAIT).until(() -> deliveries(event.id()).size() >= 2
                && "succeeded".equals(delivery(event.id(), 1).get("status")));
        Map<String, Object> first = delivery(event.id(), 0);
        assertThat(first.get("status")).isEqualTo("failed");
        assertThat(first.get("responseStatus")).isNull();
        assertThat(first.get("error")).asString().contains("PT1S");
    }

    @Test
    void givesUpAfterGiveUpAfterAndCountsIt() {
        double gaveUpBefore = counter("gave_up");
        String booking = unique("bk");
        RECEIVER.behave(booking, Behaviour.FAIL_ALWAYS);
        Event event = append(booking);
        await().atMost(WAIT).until(() -> {
            List<?> all = deliveries(event.id());
            return all.size() >= 3 && all.stream().allMatch(d -> "failed".equals(((Map<?, ?>) d).get("status")));
        });
        List<?> all = deliveries(event.id());
        // backoff 0.2 s, 0.4 s, 0.8 s, then 1 s (max): attempts until 4 s after the first, then no more
        Instant firstAt = Instant.parse((String) ((Map<?, ?>) all.get(0)).get("at"));
        Instant lastAt = Instant.parse((String) ((Map<?, ?>) all.get(all.size() - 1)).get("at"));
        assertThat(Duration.between(firstAt, lastAt)).isLessThanOrEqualTo(Duration.ofSeconds(5));
        assertThat(count("select count(*) from webhook_deliveries where event_id = $1 and status = 'pending'",
                event.id())).isZero();
        assertThat(counter("gave_up")).isGreaterThan(gaveUpBefore);
        assertThat(RECEIVER.receivedFor(booking)).hasSize(all.size()).allMatch(r -> r.answered() == 500);
    }

    @Test
    void redeliverQueuesOneMoreAttemptAndIsPerMerchant() {
        String booking = unique("bk");
        Event event = append(booking);
        await().atMost(WAIT).until(() -> "succeeded".equals(delivery(event.id(), 0).get("status")));

        client.post().uri("/v1/events/" + event.id() + "/redeliver").header("Authorization", "Bearer " + HOOKS_KEY)
                .exchange().expectStatus().isAccepted()
                .expectBody().jsonPath("$.attempt").isEqualTo(2).jsonPath("$.status").isEqualTo("pending")
                .jsonPath("$.id").value(id -> assertThat((String) id).startsWith("wd_"));
        await().atMost(WAIT).until(() -> RECEIVER.receivedFor(booking).size() == 2
                && "succeeded".equals(delivery(event.id(), 1).get("status")));
        assertThat(RECEIVER.receivedFor(booking)).allMatch(r -> r.webhookId().equals(event.id()))
                .allMatch(Received::signatureValid);

        // pages of attempts
        Map<?, ?> page = client.get().uri("/v1/events/" + event.id() + "/deliveries?limit=1")
                .header("Authorization", "Bearer " + HOOKS_KEY).exchange().expectStatus().isOk()
                .expectBody(Map.class).returnResult().getResponseBody();
        assertThat(page.get("has_more")).isEqualTo(true);
        String firstId = (String) ((Map<?, ?>) ((List<?>) page.get("data")).get(0)).get("id");
        client.get().uri("/v1/events/" + event.id() + "/deliveries?limit=1&starting_after=" + firstId)
                .header("Authorization", "Bearer " + HOOKS_KEY).exchange().expectStatus().isOk()
                .expectBody().jsonPath("$.data[0].attempt").isEqualTo(2).jsonPath("$.has_more").isEqualTo(false);
        client.get().uri("/v1/events/" + event.id() + "/deliveries?starting_after=wd_nope")
                .header("Authorization", "Bearer " + HOOKS_KEY).exchange().expectStatus().isBadRequest()
                .expectBody().jsonPath("$.code").isEqualTo("invalid_request");

        // another merchant's event, or an unknown one: 404, and nothing queued
        for (String path : List.of("/deliveries", "/redeliver")) {
            var request = path.equals("/redeliver") ? client.post() : client.get();
            request.uri("/v1/events/" + event.id() + path).header("Authorization", "Bearer " + DEMO_KEY)
                    .exchange().expectStatus().isNotFound()
                    .expectBody().jsonPath("$.code").isEqualTo("not_found");
            request.uri("/v1/events/evt_unknown" + path).header("Authorization", "Bearer " + HOOKS_KEY)
                    .exchange().expectStatus().isNotFound();
        }
        assertThat(count("select count(*) from webhook_deliveries where event_id = $1", event.id())).isEqualTo(2);
    }

    @Test
    void metricsCountDeliveriesByResultAndTheOldestUndeliveredAge() {
        String booking = unique("bk");
        Event event = append(booking);
        await().atMost(WAIT).until(() -> "succeeded".equals(delivery(event.id(), 0).get("status")));
        assertThat(counter("succeeded")).isPositive();
        assertThat(meters.find("payments.merchant_webhook.oldest_undelivered").gauge()).isNotNull();
    }

    private double oldestUndelivered() {
        return meters.find("payments.merchant_webhook.oldest_undelivered").gauge().value();
    }

    private double counter(String result) {
        var counter = meters.find("payments.merchant_webhook.deliveries").tag("result", result).counter();
        return counter == null ? 0 : counter.count();
    }

    private Event append(String bookingId) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        return events.append("hooks", EventType.PAYMENT_FAILED, null, bookingId,
                        Map.of("status", "FAILED", "failureReason", "card_declined"), now)
                .as(transaction::transactional)
                .block(WAIT);
    }

    private List<String> eventIdsOf(String paymentId) {
        return db.sql("select id from events where payment_id = $1 order by seq").bind(0, paymentId)
                .map(row -> row.get(0, String.class)).all().collectList().block(WAIT);
    }

    private List<?> deliveries(String eventId) {
        Map<?, ?> page = client.get().uri("/v1/events/" + eventId + "/deliveries?limit=100")
                .header("Authorization", "Bearer " + HOOKS_KEY).exchange()
                .expectStatus().isOk().expectBody(Map.class).returnResult().getResponseBody();
        return (List<?>) page.get("data");
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> delivery(String eventId, int index) {
        List<?> all = deliveries(eventId);
        return all.size() > index ? (Map<String, Object>) all.get(index) : Map.of();
    }
}
