package com.payorch.payments;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.payorch.testsupport.ApiTest;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Customer action's bad input (contract v3): a `returnUrl` the service would not send a customer to is refused at
 * create with nothing stored; `complete` refuses what it must, like the other payment endpoints, and changes nothing.
 */
class CustomerActionBadInputIT extends ApiTest {

    private static final Duration SETTLED = Duration.ofSeconds(30);

    private static String withReturnUrl(String booking, String returnUrlJson) {
        return """
                {"bookingId": "%s", "amount": 12000, "currency": "JPY", "paymentMethod": "pm_card_ok",
                 "returnUrl": %s}""".formatted(booking, returnUrlJson);
    }

    @Test
    void aReturnUrlTheServiceWouldNotSendACustomerToIsRefusedAndNothingIsStored() {
        List<String> refused = List.of(
                "\"http://hotel.example/paid\"",                              // http to a host other than localhost
                "\"ftp://hotel.example/paid\"",
                "\"javascript:alert(1)\"",
                "\"https://hotel.example/" + "a".repeat(2001 - "https://hotel.example/".length()) + "\"",
                "\"https://hotel.example/pa\\u0000id\"",
                "\"https://hotel.example/pa\\nid\"",
                "\"https://guest:secret@hotel.example/paid\"",
                "\"https://hotel.example/pa id\"",
                "\"/relative/paid\"",
                "12",
                "{\"url\": \"https://hotel.example/paid\"}",
                "[\"https://hotel.example/paid\"]",
                "true");
        long paymentsBefore = count("select count(*) from payments");
        for (String returnUrl : refused) {
            String booking = unique("bk");
            String key = unique("key");
            postPayment(DEMO_KEY, key, withReturnUrl(booking, returnUrl)).exchange()
                    .expectStatus().isBadRequest()
                    .expectHeader().contentTypeCompatibleWith("application/problem+json")
                    .expectBody()
                    .jsonPath("$.code").isEqualTo("invalid_request")
                    .jsonPath("$.detail").value(detail -> assertThat((String) detail).as(returnUrl)
                            .contains("returnUrl"));
            assertThat(count("select count(*) from payments where booking_id = $1", booking)).as(returnUrl).isZero();
            assertThat(count("select count(*) from idempotency_keys where idempotency_key = $1", key)).as(returnUrl)
                    .isZero();
        }
        assertThat(count("select count(*) from payments")).isEqualTo(paymentsBefore);
    }

    @Test
    void aRefusedReturnUrlLeavesTheKeyAndTheBookingUsable() {
        String booking = unique("bk");
        String key = unique("key");
        postPayment(DEMO_KEY, key, withReturnUrl(booking, "\"http://hotel.example/paid\"")).exchange()
                .expectStatus().isBadRequest();

        postPayment(DEMO_KEY, key, withReturnUrl(booking, "\"http://localhost:8081/paid?order=1\"")).exchange()
                .expectStatus().isCreated()
                .expectBody()
                .jsonPath("$.returnUrl").isEqualTo("http://localhost:8081/paid?order=1")
                .jsonPath("$.nextAction").doesNotExist();
    }

    @Test
    void aReturnUrlOfExactly2000CharactersIsAccepted() {
        String url = "https://hotel.example/" + "a".repeat(2000 - "https://hotel.example/".length());
        postPayment(DEMO_KEY, unique("key"), withReturnUrl(unique("bk"), "\"" + url + "\"")).exchange()
                .expectStatus().isCreated()
                .expectBody().jsonPath("$.returnUrl").isEqualTo(url);
    }

    @Test
    void completeWithoutAnIdempotencyKeyIsRefusedLikeTheOtherEndpoints() {
        String paymentId = createPayment(unique("bk"), "pm_card_ok");

        client.post().uri("/v1/payments/" + paymentId + "/complete")
                .header("Authorization", "Bearer " + DEMO_KEY)
                .header("Content-Type", "application/json")
                .bodyValue("{}")
                .exchange()
                .expectStatus().isBadRequest()
                .expectBody().jsonPath("$.code").isEqualTo("idempotency_key_missing");
        complete(DEMO_KEY, paymentId, "", "{}").expectStatus().isBadRequest()
                .expectBody().jsonPath("$.code").isEqualTo("idempotency_key_invalid");
    }

    @Test
    void aBadCompleteBodyIsRefusedBeforeThePaymentIsLookedAt() {
        String paymentId = createPayment(unique("bk"), "pm_card_ok");
        long version = versionOf(paymentId);
        List<String> refused = List.of(
                "{\"redirectResult\": 42}",
                "{\"redirectResult\": {\"a\": \"b\"}}",
                "{\"redirectResult\": \"\"}",
                "{\"redirectResult\": \"" + "x".repeat(4097) + "\"}",
                "{\"redirectResult\": \"ab\\u0000c\"}",
                "{\"redirectResult\": \"abc\", \"details\": {}}",
                "{\"MD\": \"abc\"}",
                "[]",
                "{\"redirectResult\": ");
        for (String body : refused) {
            String key = unique("key");
            complete(DEMO_KEY, paymentId, key, body).expectStatus().isBadRequest()
                    .expectBody().jsonPath("$.code").isEqualTo("invalid_request");
            assertThat(count("select count(*) from idempotency_keys where idempotency_key = $1", key))
                    .as(body.length() > 80 ? body.substring(0, 80) : body).isZero();
        }
        assertThat(versionOf(paymentId)).isEqualTo(version);
    }

    @Test
    void completeOnAPaymentNotWaitingForItsCustomerIsAnInvalidTransition() {
        String pending = createPayment(unique("bk"), "pm_card_unavailable");
        String completed = settled(createPayment(unique("bk"), "pm_card_ok"), "succeeded", "COMPLETED");
        String failed = settled(createPayment(unique("bk"), "pm_card_declined"), "failed", "FAILED");
        assertThat(statusOf(pending)).isEqualTo("PENDING");

        for (String paymentId : List.of(pending, completed, failed)) {
            String status = statusOf(paymentId);
            long version = versionOf(paymentId);
            String key = unique("key");
            complete(DEMO_KEY, paymentId, key, "{}").expectStatus().isEqualTo(409)
                    .expectBody()
                    .jsonPath("$.code").isEqualTo("invalid_transition")
                    .jsonPath("$.detail").value(detail -> assertThat((String) detail).contains(status));
            complete(DEMO_KEY, paymentId, unique("key"), "{\"redirectResult\": \"Ab02b4c0!BQAB\"}")
                    .expectStatus().isEqualTo(409);
            assertThat(statusOf(paymentId)).isEqualTo(status);
            assertThat(versionOf(paymentId)).isEqualTo(version);
            // a refused request is not stored: the key may be used again
            assertThat(count("select count(*) from idempotency_keys where idempotency_key = $1", key)).isZero();
        }
    }

    @Test
    void completeOnAnUnknownOrAnotherMerchantsPaymentIsNotFound() {
        complete(DEMO_KEY, "pay_doesnotexist", unique("key"), "{}").expectStatus().isNotFound()
                .expectBody().jsonPath("$.code").isEqualTo("not_found");

        String others = createPaymentFromOther(unique("bk"));
        complete(DEMO_KEY, others, unique("key"), "{}").expectStatus().isNotFound()
                .expectBody().jsonPath("$.code").isEqualTo("not_found");
        // the owner gets the real refusal: the 404 above was about tenancy, not about the id
        complete(OTHER_KEY, others, unique("key"), "{}").expectStatus().isEqualTo(409);
    }

    @Test
    void completeWithAStaleIfMatchIsAPreconditionFailure() {
        String paymentId = createPayment(unique("bk"), "pm_card_ok");

        client.post().uri("/v1/payments/" + paymentId + "/complete")
                .header("Authorization", "Bearer " + DEMO_KEY)
                .header("Idempotency-Key", unique("key"))
                .header("If-Match", "\"999\"")
                .exchange()
                .expectStatus().isEqualTo(412)
                .expectBody().jsonPath("$.code").isEqualTo("version_mismatch");
    }

    private WebTestClient.ResponseSpec complete(String apiKey, String paymentId, String key, String body) {
        return client.post().uri("/v1/payments/" + paymentId + "/complete")
                .header("Authorization", "Bearer " + apiKey)
                .header("Idempotency-Key", key)
                .header("Content-Type", "application/json")
                .bodyValue(body)
                .exchange();
    }

    private String createPaymentFromOther(String booking) {
        String location = postPayment(OTHER_KEY, unique("key"), paymentBody(booking)).exchange()
                .expectStatus().isCreated().expectBody().returnResult().getResponseHeaders().getLocation().toString();
        return location.substring("/v1/payments/".length());
    }

    /** Waits for the sandbox to settle the charge, sends its webhook (webhooks are off here), waits for the status. */
    private String settled(String paymentId, String chargeStatus, String paymentStatus) {
        await().atMost(SETTLED).until(() -> count(
                "select count(*) from sandbox_charges where payment_id = $1 and status = $2", paymentId,
                chargeStatus) == 1);
        String type = chargeStatus.equals("succeeded") ? "payment.succeeded" : "payment.failed";
        sendWebhook(unique("msg"), webhookBody(type, paymentId, 12000, "JPY")).expectStatus().isOk();
        await().atMost(SETTLED).until(() -> statusOf(paymentId).equals(paymentStatus));
        return paymentId;
    }

    private long versionOf(String paymentId) {
        return count("select version from payments where id = $1", paymentId);
    }
}
