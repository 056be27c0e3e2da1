package com.payorch.holds;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.testsupport.ApiTest;
import com.payorch.testsupport.OwnSchema;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Holds through the API, end to end with the sandbox as the connector: it authorises a manual payment and reports
 * it by webhook, captures (settled by its webhook after its delay) and releases. Bookings follow: activated once at
 * the authorisation, cancelled once by a released hold.
 */
@TestPropertySource(properties = {
        "payments.gateway.sandbox.webhooks=auto",
        "payments.gateway.sandbox.webhook-delay=PT0.2S",
        // refunds here are settled by the sandbox's refund webhooks, not by the reconciler
        "payments.recovery.refund-pending-after=PT10M"})
@OwnSchema("hold_api_tests")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class HoldApiIT extends ApiTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration SETTLED = Duration.ofSeconds(30);

    private String createHold(String booking, String paymentMethod) {
        return postPayment(DEMO_KEY, unique("key"), HoldBadInputIT.holdBody(booking, paymentMethod)).exchange()
                .expectStatus().isCreated()
                .expectBody()
                .jsonPath("$.captureMethod").isEqualTo("manual")
                .jsonPath("$.amountCapturable").isEqualTo(0)
                .jsonPath("$.amountCaptured").isEqualTo(0)
                .jsonPath("$.authorizationExpiresAt").isEmpty()
                .jsonPath("$.id").value(String.class, id -> assertThat(id).startsWith("pay_"))
                .returnResult().getResponseHeaders().getLocation().toString().substring("/v1/payments/".length());
    }

    private String authorizedHold(String booking, String paymentMethod) {
        String id = createHold(booking, paymentMethod);
        awaitStatus(id, "AUTHORIZED");
        return id;
    }

    private void awaitStatus(String paymentId, String status) {
        Awaitility.await().atMost(SETTLED).until(() -> status.equals(statusOf(paymentId)));
    }

    private WebTestClient.ResponseSpec post(String paymentId, String action, String key, String body) {
        return client.post().uri("/v1/payments/" + paymentId + "/" + action)
                .header("Authorization", "Bearer " + DEMO_KEY)
                .header("Idempotency-Key", key)
                .header("Content-Type", "application/json")
                .bodyValue(body)
                .exchange();
    }

    private JsonNode get(String uri) {
        return JSON.readTree(client.get().uri(uri).header("Authorization", "Bearer " + DEMO_KEY).exchange()
                .expectStatus().isOk().expectBody().returnResult().getResponseBody());
    }

    private long events(String type, String bookingId) {
        return count("select count(*) from events where booking_id = $1 and type = $2", bookingId, type);
    }

    /** Still {@code expected} for a while (a late webhook or a second delivery would show by then): no sleep. */
    private void staysAt(long expected, String type, String bookingId) {
        Awaitility.await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(5))
                .until(() -> events(type, bookingId) == expected);
    }

    @Test
    void aManualPaymentIsAuthorizedActivatesItsBookingOnceAndAFullCaptureCompletesIt() {
        String booking = unique("bk");
        String id = authorizedHold(booking, "pm_card_ok");

        JsonNode held = get("/v1/payments/" + id);
        assertThat(held.path("amountCapturable").asLong()).isEqualTo(12000);
        assertThat(held.path("amountCaptured").asLong()).isZero();
        assertThat(held.path("cancelRequestedAt").isNull()).isTrue();
        Instant expires = Instant.parse(held.path("authorizationExpiresAt").asText());
        assertThat(expires).isBetween(Instant.now().plus(7, ChronoUnit.DAYS).minus(5, ChronoUnit.MINUTES),
                Instant.now().plus(7, ChronoUnit.DAYS));
        JsonNode bookingNow = get("/v1/bookings/" + booking);
        assertThat(bookingNow.path("status").asText()).isEqualTo("ACTIVE");
        assertThat(bookingNow.path("paymentId").asText()).isEqualTo(id);
        assertThat(events("booking.activated", booking)).isEqualTo(1);
        assertThat(events("payment.authorized", booking)).isEqualTo(1);
        assertThat(get("/v1/payments?status=AUTHORIZED&bookingId=" + booking).path("data").get(0).path("id").asText())
                .isEqualTo(id);
        // the booking guard: a hold has paid the booking
        postPayment(DEMO_KEY, unique("key"), paymentBody(booking)).exchange()
                .expectStatus().isEqualTo(409).expectBody().jsonPath("$.code").isEqualTo("booking_already_paid");

        String key = unique("key");
        byte[] captured = post(id, "capture", key, "{}").expectStatus().isOk()
                .expectHeader().exists("ETag")
                .expectHeader().doesNotExist("Location")
                .expectBody()
                .jsonPath("$.status").value(String.class, s -> assertThat(s).isIn("CAPTURING", "COMPLETED"))
                .jsonPath("$.amountCapturable").isEqualTo(0)
                .returnResult().getResponseBody();
        awaitStatus(id, "COMPLETED");

        JsonNode completed = get("/v1/payments/" + id);
        assertThat(completed.path("amountCaptured").asLong()).isEqualTo(12000);
        assertThat(completed.path("amountCapturable").asLong()).isZero();
        assertThat(completed.path("authorizationExpiresAt").isNull()).isTrue();
        assertThat(completed.path("history").valueStream().map(h -> h.path("event").asText()).toList())
                .containsSubsequence("AUTHORIZE", "CAPTURE", "SUCCEED");
        JsonNode charge = get("/v1/sandbox/charges?paymentId=" + id).path("data").get(0);
        assertThat(charge.path("amountCaptured").asLong()).isEqualTo(12000);
        // the replay is the stored answer, even though the payment moved on since
        byte[] replay = post(id, "capture", key, "{}").expectStatus().isOk()
                .expectHeader().valueEquals("Idempotent-Replayed", "true")
                .expectBody().returnResult().getResponseBody();
        assertThat(replay).isEqualTo(captured);
        staysAt(1, "booking.activated", booking);
        assertThat(events("payment.completed", booking)).isEqualTo(1);
    }

    @Test
    void aPartialCaptureTakesOnlyThatPartAndOnlyThatPartIsRefundable() {
        String booking = unique("bk");
        String id = authorizedHold(booking, "pm_card_ok");

        post(id, "capture", unique("key"), "{\"amount\": 5000}").expectStatus().isOk()
                .expectBody().jsonPath("$.id").isEqualTo(id);
        awaitStatus(id, "COMPLETED");

        assertThat(get("/v1/payments/" + id).path("amountCaptured").asLong()).isEqualTo(5000);
        assertThat(get("/v1/sandbox/charges?paymentId=" + id).path("data").get(0).path("amountCaptured").asLong())
                .isEqualTo(5000);
        client.post().uri("/v1/payments/" + id + "/refunds")
                .header("Authorization", "Bearer " + DEMO_KEY).header("Idempotency-Key", unique("rk"))
                .header("Content-Type", "application/json").bodyValue("{\"amount\": 5001}")
                .exchange().expectStatus().isEqualTo(409)
                .expectBody().jsonPath("$.code").isEqualTo("amount_exceeds_refundable");
        client.post().uri("/v1/payments/" + id + "/refunds")
                .header("Authorization", "Bearer " + DEMO_KEY).header("Idempotency-Key", unique("rk"))
                .header("Content-Type", "application/json").bodyValue("{\"amount\": 5000}")
                .exchange().expectStatus().isCreated()
                .expectBody().jsonPath("$.amount").isEqualTo(5000);
        Awaitility.await().atMost(SETTLED).until(() -> count(
                "select amount_refunded from payments where id = $1", id) == 5000);
        // all that was taken is given back: the booking is cancelled, once
        Awaitility.await().atMost(SETTLED).until(() -> "CANCELLED".equals(get("/v1/bookings/" + booking)
                .path("status").asText()));
        staysAt(1, "booking.cancelled", booking);
    }

    @Test
    void aCancelReleasesTheHoldAndCancelsTheBookingOnceForGood() {
        String booking = unique("bk");
        String id = authorizedHold(booking, "pm_card_ok");

        post(id, "cancel", unique("key"), "{\"reason\": \"guest_cancelled\"}").expectStatus().isOk()
                .expectBody()
                .jsonPath("$.cancelRequestedAt").isNotEmpty()
                .jsonPath("$.amountCapturable").isEqualTo(0)
                .jsonPath("$.status").value(String.class, s -> assertThat(s).isIn("AUTHORIZED", "CANCELLED"));
        awaitStatus(id, "CANCELLED");

        JsonNode cancelled = get("/v1/payments/" + id);
        assertThat(cancelled.path("amountCaptured").asLong()).isZero();
        assertThat(cancelled.path("authorizationExpiresAt").isNull()).isTrue();
        assertThat(get("/v1/sandbox/charges?paymentId=" + id).path("data").get(0).path("status").asText())
                .isEqualTo("cancelled");
        Awaitility.await().atMost(SETTLED).until(() -> "CANCELLED".equals(get("/v1/bookings/" + booking)
                .path("status").asText()));
        staysAt(1, "booking.cancelled", booking);
        assertThat(events("payment.cancelled", booking)).isEqualTo(1);
        postPayment(DEMO_KEY, unique("key"), paymentBody(booking)).exchange()
                .expectStatus().isEqualTo(409).expectBody().jsonPath("$.code").isEqualTo("booking_cancelled");
        post(id, "cancel", unique("key"), "{}").expectStatus().isEqualTo(409)
                .expectBody().jsonPath("$.code").isEqualTo("invalid_transition");
        post(id, "capture", unique("key"), "{}").expectStatus().isEqualTo(409)
                .expectBody().jsonPath("$.code").isEqualTo("invalid_transition");
    }

    @Test
    void aCompletedOrAutomaticPaymentIsNeitherCapturedNorCancelledAndTheKeyStaysFree() {
        String automatic = createPayment(unique("bk"), "pm_card_ok");
        String key = unique("key");
        post(automatic, "capture", key, "{}").expectStatus().isEqualTo(409)
                .expectBody().jsonPath("$.code").isEqualTo("invalid_transition");
        awaitStatus(automatic, "COMPLETED");
        post(automatic, "capture", key, "{}").expectStatus().isEqualTo(409)
                .expectBody().jsonPath("$.code").isEqualTo("invalid_transition");
        post(automatic, "cancel", unique("key"), "{}").expectStatus().isEqualTo(409)
                .expectBody().jsonPath("$.code").isEqualTo("invalid_transition");
        assertThat(count("select count(*) from idempotency_keys where idempotency_key = $1", key)).isZero();

        String held = authorizedHold(unique("bk"), "pm_card_ok");
        post(held, "capture", unique("key"), "{}").expectStatus().isOk();
        awaitStatus(held, "COMPLETED");
        long version = count("select version from payments where id = $1", held);
        post(held, "cancel", unique("key"), "{}").expectStatus().isEqualTo(409)
                .expectBody().jsonPath("$.code").isEqualTo("invalid_transition")
                .jsonPath("$.detail").value(String.class, d -> assertThat(d).contains("COMPLETED"));
        post(held, "capture", unique("key"), "{}").expectStatus().isEqualTo(409)
                .expectBody().jsonPath("$.code").isEqualTo("invalid_transition");
        assertThat(count("select version from payments where id = $1", held)).isEqualTo(version);
    }

    @Test
    void aCaptureTheConnectorRefusesLeavesTheMoneyHeldWithTheReason() {
        String booking = unique("bk");
        String id = authorizedHold(booking, "pm_card_capture_fails");

        post(id, "capture", unique("key"), "{}").expectStatus().isOk();
        Awaitility.await().atMost(SETTLED).until(() -> events("payment.capture_failed", booking) == 1);

        JsonNode held = get("/v1/payments/" + id);
        assertThat(held.path("status").asText()).isEqualTo("AUTHORIZED");
        assertThat(held.path("failureReason").asText()).isNotBlank();
        assertThat(held.path("amountCaptured").asLong()).isZero();
        assertThat(held.path("amountCapturable").asLong()).isEqualTo(12000);
        assertThat(held.path("history").valueStream().map(h -> h.path("event").asText()).toList())
                .containsSubsequence("AUTHORIZE", "CAPTURE", "CAPTURE_FAIL");
        assertThat(get("/v1/bookings/" + booking).path("status").asText()).isEqualTo("ACTIVE");
        // still a hold: it can be released
        post(id, "cancel", unique("key"), "{}").expectStatus().isOk();
        awaitStatus(id, "CANCELLED");
    }

    @Test
    void theListFiltersByEveryStatus() {
        for (String status : new String[] {"PENDING", "PROCESSING", "AUTHORIZED", "CAPTURING", "COMPLETED", "FAILED",
                "CANCELLED"}) {
            JsonNode page = get("/v1/payments?limit=100&status=" + status);
            assertThat(page.path("data").valueStream().map(p -> p.path("status").asText()).distinct().toList())
                    .as(status).isSubsetOf(status);
        }
        client.get().uri("/v1/payments?status=HELD").header("Authorization", "Bearer " + DEMO_KEY).exchange()
                .expectStatus().isBadRequest()
                .expectBody().jsonPath("$.code").isEqualTo("invalid_request")
                .jsonPath("$.detail").value(String.class, d -> assertThat(d).contains("AUTHORIZED", "CAPTURING",
                        "CANCELLED"));
    }
}
