package com.payorch.payments;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.payorch.testsupport.ApiTest;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.web.reactive.function.BodyInserters;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Customer action through the API with the sandbox's 3-D Secure page (contract v3): a payment waits in
 * REQUIRES_ACTION with its `nextAction`, the customer decides on the page, and the merchant's `complete` (the sandbox's
 * webhooks are off here, so nothing else settles it) applies what the connector says. A replayed complete is the
 * stored answer.
 */
class CustomerActionApiIT extends ApiTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern TOKEN = Pattern.compile("name=\"token\"\\s+value=\"([^\"]+)\"");
    private static final String RETURN_URL = "https://hotel.example/bookings/paid?lang=en";

    private static String createBody(String booking, String paymentMethod, String extra) {
        return """
                {"bookingId": "%s", "amount": 12000, "currency": "JPY", "paymentMethod": "%s",
                 "returnUrl": "%s"%s}""".formatted(booking, paymentMethod, RETURN_URL, extra);
    }

    private JsonNode create(String booking, String paymentMethod, String extra) {
        return JSON.readTree(postPayment(DEMO_KEY, unique("key"), createBody(booking, paymentMethod, extra)).exchange()
                .expectStatus().isCreated().expectBody().returnResult().getResponseBody());
    }

    /** Opens the payment's page and presses the button; answers where the browser is sent. */
    private URI decide(JsonNode payment, String decision) {
        String path = URI.create(payment.path("nextAction").path("url").asText()).getPath();
        String page = new String(client.get().uri(path).exchange()
                .expectStatus().isOk()
                .expectBody().returnResult().getResponseBody(), StandardCharsets.UTF_8);
        Matcher token = TOKEN.matcher(page);
        assertThat(token.find()).as("the page's one-time token").isTrue();
        return client.post().uri(path)
                .contentType(MediaType.APPLICATION_FORM_URLENCODED)
                .body(BodyInserters.fromFormData("token", token.group(1).replace("&amp;", "&"))
                        .with("decision", decision))
                .exchange()
                .expectStatus().isSeeOther()
                .expectBody().returnResult().getResponseHeaders().getLocation();
    }

    private EntityExchangeResult<byte[]> complete(String paymentId, String key, String body) {
        return client.post().uri("/v1/payments/" + paymentId + "/complete")
                .header("Authorization", "Bearer " + DEMO_KEY)
                .header("Idempotency-Key", key)
                .header("Content-Type", "application/json")
                .bodyValue(body)
                .exchange()
                .expectBody().returnResult();
    }

    private void awaitCharge(String paymentId, String status) {
        await().atMost(Duration.ofSeconds(30)).until(() -> count(
                "select count(*) from sandbox_charges where payment_id = $1 and status = $2", paymentId, status) == 1);
    }

    @Test
    void aPaymentWaitsForItsCustomerAndIsCompletedOnceTheyApproved() {
        String booking = unique("bk");
        JsonNode created = create(booking, "pm_card_3ds", "");
        String paymentId = created.path("id").asText();
        assertThat(created.path("status").asText()).isEqualTo("REQUIRES_ACTION");
        assertThat(created.path("returnUrl").asText()).isEqualTo(RETURN_URL);
        assertThat(created.path("nextAction").path("type").asText()).isEqualTo("redirect");
        assertThat(created.path("nextAction").path("url").asText())
                .endsWith("/sandbox/authenticate/" + latestChargeOf(paymentId));
        // waiting for the customer holds the booking
        postPayment(DEMO_KEY, unique("key"), paymentBody(booking)).exchange()
                .expectStatus().isEqualTo(409)
                .expectBody().jsonPath("$.code").isEqualTo("booking_payment_in_progress");

        URI back = decide(created, "approve");
        assertThat(back.toString()).startsWith("https://hotel.example/bookings/paid?")
                .contains("lang=en", "payment_id=" + paymentId);
        awaitCharge(paymentId, "succeeded");

        String key = unique("key");
        EntityExchangeResult<byte[]> first = complete(paymentId, key, "{}");
        assertThat(first.getStatus().value()).isEqualTo(200);
        JsonNode completed = JSON.readTree(first.getResponseBody());
        assertThat(completed.path("status").asText()).isEqualTo("COMPLETED");
        assertThat(completed.path("nextAction").isNull()).isTrue();
        assertThat(completed.path("history").valueStream().map(h -> h.path("to").asText()).toList())
                .containsSubsequence("PENDING", "REQUIRES_ACTION", "COMPLETED").endsWith("COMPLETED");
        assertThat(first.getResponseHeaders().getETag()).isEqualTo("\"" + completed.path("version").asLong() + "\"");

        EntityExchangeResult<byte[]> replay = complete(paymentId, key, "{}");
        assertThat(replay.getStatus().value()).isEqualTo(200);
        assertThat(replay.getResponseHeaders().getFirst("Idempotent-Replayed")).isEqualTo("true");
        assertThat(replay.getResponseBody()).isEqualTo(first.getResponseBody());
        assertThat(replay.getResponseHeaders().getETag()).isEqualTo(first.getResponseHeaders().getETag());
        // the same key with another body is another request
        assertThat(complete(paymentId, key, "{\"redirectResult\": \"abc\"}").getStatus().value()).isEqualTo(422);
        // a new key: the payment no longer waits
        assertThat(complete(paymentId, unique("key"), "{}").getStatus().value()).isEqualTo(409);

        client.get().uri("/v1/bookings/" + booking).header("Authorization", "Bearer " + DEMO_KEY).exchange()
                .expectStatus().isOk()
                .expectBody().jsonPath("$.status").isEqualTo("ACTIVE").jsonPath("$.paymentId").isEqualTo(paymentId);
        assertThat(count("select count(*) from events where payment_id = $1 and type = 'payment.requires_action'",
                paymentId)).isEqualTo(1);
        assertThat(count("select count(*) from events where payment_id = $1 and type = 'booking.activated'",
                paymentId)).isEqualTo(1);
    }

    @Test
    void theMerchantRetryingTheCreateWhileTheCustomerDecidesGetsTheStoredAnswer() {
        String booking = unique("bk");
        String key = unique("key");
        EntityExchangeResult<byte[]> first = postPayment(DEMO_KEY, key, createBody(booking, "pm_card_3ds", ""))
                .exchange().expectStatus().isCreated().expectBody().returnResult();
        String paymentId = JSON.readTree(first.getResponseBody()).path("id").asText();

        EntityExchangeResult<byte[]> again = postPayment(DEMO_KEY, key, createBody(booking, "pm_card_3ds", ""))
                .exchange().expectStatus().isCreated().expectBody().returnResult();

        assertThat(again.getResponseHeaders().getFirst("Idempotent-Replayed")).isEqualTo("true");
        assertThat(again.getResponseBody()).isEqualTo(first.getResponseBody());
        assertThat(JSON.readTree(again.getResponseBody()).path("status").asText()).isEqualTo("REQUIRES_ACTION");
        assertThat(count("select count(*) from payments where booking_id = $1", booking)).isEqualTo(1);
        assertThat(count("select count(*) from sandbox_charges where payment_id = $1", paymentId)).isEqualTo(1);
    }

    @Test
    void aCompleteBeforeTheCustomerDecidedLeavesThePaymentWaiting() {
        JsonNode created = create(unique("bk"), "pm_card_3ds", "");
        String paymentId = created.path("id").asText();

        EntityExchangeResult<byte[]> early = complete(paymentId, unique("key"), "{}");

        assertThat(early.getStatus().value()).isEqualTo(200);
        JsonNode answer = JSON.readTree(early.getResponseBody());
        assertThat(answer.path("status").asText()).isEqualTo("REQUIRES_ACTION");
        assertThat(answer.path("nextAction").path("url").asText()).isEqualTo(created.path("nextAction").path("url")
                .asText());
    }

    @Test
    void aDeclinedAuthenticationFailsThePayment() {
        JsonNode created = create(unique("bk"), "pm_card_3ds", "");
        String paymentId = created.path("id").asText();
        decide(created, "decline");
        awaitCharge(paymentId, "failed");

        EntityExchangeResult<byte[]> answer = complete(paymentId, unique("key"), "{}");

        JsonNode failed = JSON.readTree(answer.getResponseBody());
        assertThat(failed.path("status").asText()).isEqualTo("FAILED");
        assertThat(failed.path("failureReason").asText()).isEqualTo("authentication_failed");
    }

    @Test
    void anApprovedHoldIsAuthorized() {
        JsonNode created = create(unique("bk"), "pm_card_3ds", ", \"captureMethod\": \"manual\"");
        String paymentId = created.path("id").asText();
        assertThat(created.path("status").asText()).isEqualTo("REQUIRES_ACTION");
        decide(created, "approve");
        awaitCharge(paymentId, "authorized");

        EntityExchangeResult<byte[]> answer = complete(paymentId, unique("key"), "{}");

        JsonNode authorized = JSON.readTree(answer.getResponseBody());
        assertThat(authorized.path("status").asText()).isEqualTo("AUTHORIZED");
        assertThat(authorized.path("amountCapturable").asLong()).isEqualTo(12000);
    }
}
