package com.payorch.payments;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.testsupport.ApiTest;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import org.springframework.test.web.reactive.server.EntityExchangeResult;

class PaymentApiIT extends ApiTest {

    @Test
    void createsAPaymentSubmitsItAndShowsItsHistory() {
        String booking = unique("bk");
        String key = unique("key");

        EntityExchangeResult<byte[]> created = postPayment(DEMO_KEY, key, paymentBody(booking)).exchange()
                .expectStatus().isCreated()
                .expectHeader().contentType("application/json")
                .expectHeader().valueEquals("ETag", "\"2\"")
                .expectHeader().doesNotExist("Idempotent-Replayed")
                .expectBody()
                .jsonPath("$.id").value(id -> assertThat((String) id).startsWith("pay_"))
                .jsonPath("$.bookingId").isEqualTo(booking)
                .jsonPath("$.amount").isEqualTo(12000)
                .jsonPath("$.currency").isEqualTo("JPY")
                .jsonPath("$.status").isEqualTo("PROCESSING")
                .jsonPath("$.version").isEqualTo(2)
                .jsonPath("$.paymentMethod").isEqualTo("pm_card_ok")
                .jsonPath("$.failureReason").isEmpty()
                .jsonPath("$.createdAt").value(t -> assertThat((String) t).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z"))
                .jsonPath("$.history.length()").isEqualTo(2)
                .jsonPath("$.history[0].from").isEmpty()
                .jsonPath("$.history[0].to").isEqualTo("PENDING")
                .jsonPath("$.history[0].event").isEqualTo("CREATE")
                .jsonPath("$.history[0].source").isEqualTo("api")
                .jsonPath("$.history[0].sourceId").isEqualTo(key)
                .jsonPath("$.history[1].from").isEqualTo("PENDING")
                .jsonPath("$.history[1].to").isEqualTo("PROCESSING")
                .jsonPath("$.history[1].event").isEqualTo("SUBMIT")
                .returnResult();
        String location = created.getResponseHeaders().getLocation().toString();
        String paymentId = location.substring("/v1/payments/".length());
        assertThat(location).isEqualTo("/v1/payments/" + paymentId);

        client.get().uri(location).header("Authorization", "Bearer " + DEMO_KEY).exchange()
                .expectStatus().isOk()
                .expectHeader().valueEquals("ETag", "\"2\"")
                .expectBody().json(new String(created.getResponseBody(), StandardCharsets.UTF_8), true);

        client.get().uri("/v1/payments?bookingId=" + booking).header("Authorization", "Bearer " + DEMO_KEY).exchange()
                .expectStatus().isOk()
                .expectBody().jsonPath("$.data.length()").isEqualTo(1).jsonPath("$.data[0].id").isEqualTo(paymentId);

        client.get().uri("/v1/bookings/" + booking).header("Authorization", "Bearer " + DEMO_KEY).exchange()
                .expectStatus().isOk()
                .expectBody().json("{\"id\":\"" + booking + "\",\"status\":\"AWAITING_PAYMENT\",\"paymentId\":null,\"activatedAt\":null,\"cancelledAt\":null}", true);

        client.get().uri("/v1/events?paymentId=" + paymentId).header("Authorization", "Bearer " + DEMO_KEY).exchange()
                .expectStatus().isOk()
                .expectBody()
                .jsonPath("$.data.length()").isEqualTo(2)
                .jsonPath("$.data[0].type").isEqualTo("payment.created")
                .jsonPath("$.data[0].id").value(id -> assertThat((String) id).startsWith("evt_"))
                .jsonPath("$.data[0].bookingId").isEqualTo(booking)
                .jsonPath("$.data[1].type").isEqualTo("payment.processing")
                .jsonPath("$.data[1].data.version").isEqualTo(2);

        client.get().uri("/v1/sandbox/charges?paymentId=" + paymentId).header("Authorization", "Bearer " + DEMO_KEY)
                .exchange()
                .expectStatus().isOk()
                .expectBody()
                .jsonPath("$.data.length()").isEqualTo(1)
                .jsonPath("$.data[0].id").value(id -> assertThat((String) id).startsWith("ch_"))
                .jsonPath("$.data[0].paymentId").isEqualTo(paymentId)
                .jsonPath("$.data[0].amount").isEqualTo(12000)
                // the sandbox settles its charges after payments.gateway.sandbox.webhook-delay (0.5 s)
                .jsonPath("$.data[0].status").value(status -> assertThat((String) status).isIn("processing", "succeeded"));
    }

    @Test
    void replaysTheStoredResponseForAReserialisedEqualBody() {
        String booking = unique("bk");
        String key = unique("key");
        byte[] first = postPayment(DEMO_KEY, key, paymentBody(booking)).exchange()
                .expectStatus().isCreated().expectBody().returnResult().getResponseBody();

        String reordered = """
                {
                  "description" : "Room 101, 2 nights", "customerEmail":"guest@example.com",
                  "paymentMethod":"pm_card_ok","currency":"JPY","amount":12000,"bookingId":"%s"
                }""".formatted(booking);
        EntityExchangeResult<byte[]> replay = postPayment(DEMO_KEY, "\"" + key + "\"", reordered).exchange()
                .expectStatus().isCreated()
                .expectHeader().valueEquals("Idempotent-Replayed", "true")
                .expectHeader().valueEquals("ETag", "\"2\"")
                .expectBody().returnResult();
        assertThat(replay.getResponseBody()).isEqualTo(first);
        assertThat(replay.getResponseHeaders().getLocation()).isNotNull();
        assertThat(count("select count(*) from payments where booking_id = $1", booking)).isEqualTo(1);
    }

    @Test
    void refusesAKeyReusedForADifferentBody() {
        String booking = unique("bk");
        String key = unique("key");
        postPayment(DEMO_KEY, key, paymentBody(booking)).exchange().expectStatus().isCreated();

        postPayment(DEMO_KEY, key, paymentBody(booking).replace("12000", "12001")).exchange()
                .expectStatus().isEqualTo(HttpStatus.UNPROCESSABLE_CONTENT)
                .expectHeader().contentType("application/problem+json")
                .expectBody().jsonPath("$.code").isEqualTo("idempotency_key_reused")
                .jsonPath("$.status").isEqualTo(422);
        assertThat(count("select count(*) from payments where booking_id = $1", booking)).isEqualTo(1);
    }

    @Test
    void keysAndBookingsOfTwoMerchantsAreIndependentAndHiddenFromEachOther() {
        String booking = unique("bk");
        String key = unique("key");
        String demoPayment = postPayment(DEMO_KEY, key, paymentBody(booking)).exchange()
                .expectStatus().isCreated().expectBody().jsonPath("$.id").value(id -> { }).returnResult()
                .getResponseHeaders().getLocation().toString();
        String otherPayment = postPayment(OTHER_KEY, key, paymentBody(booking)).exchange()
                .expectStatus().isCreated()
                .expectHeader().doesNotExist("Idempotent-Replayed")
                .expectBody().returnResult().getResponseHeaders().getLocation().toString();
        assertThat(otherPayment).isNotEqualTo(demoPayment);

        client.get().uri(demoPayment).header("Authorization", "Bearer " + OTHER_KEY).exchange()
                .expectStatus().isNotFound()
                .expectBody().jsonPath("$.code").isEqualTo("not_found");
        client.post().uri(demoPayment + "/retry").header("Authorization", "Bearer " + OTHER_KEY)
                .header("Idempotency-Key", unique("key")).exchange()
                .expectStatus().isNotFound()
                .expectBody().jsonPath("$.code").isEqualTo("not_found");
        String demoPaymentId = demoPayment.substring("/v1/payments/".length());
        client.get().uri("/v1/sandbox/charges?paymentId=" + demoPaymentId).header("Authorization", "Bearer " + OTHER_KEY)
                .exchange().expectStatus().isNotFound();
        client.get().uri("/v1/events?paymentId=" + demoPaymentId).header("Authorization", "Bearer " + OTHER_KEY)
                .exchange().expectStatus().isOk().expectBody().jsonPath("$.data.length()").isEqualTo(0);
        client.get().uri("/v1/payments?bookingId=" + booking).header("Authorization", "Bearer " + OTHER_KEY).exchange()
                .expectStatus().isOk()
                .expectBody().jsonPath("$.data.length()").isEqualTo(1)
                .jsonPath("$.data[0].id").isEqualTo(otherPayment.substring("/v1/payments/".length()));
        assertThat(count("select count(*) from payments where booking_id = $1", booking)).isEqualTo(2);
    }

    @Test
    void theBookingGuardRefusesASecondPaymentWhileTheFirstIsLive() {
        String booking = unique("bk");
        postPayment(DEMO_KEY, unique("key"), paymentBody(booking)).exchange().expectStatus().isCreated();

        String secondKey = unique("key");
        postPayment(DEMO_KEY, secondKey, paymentBody(booking)).exchange()
                .expectStatus().isEqualTo(HttpStatus.CONFLICT)
                .expectBody().jsonPath("$.code").isEqualTo("booking_payment_in_progress");
        // A refusal before any state change is not stored: the key is free again.
        assertThat(count("select count(*) from idempotency_keys where idempotency_key = $1", secondKey)).isZero();
    }

    @Test
    void aPaymentWhoseGatewayIsUnreachableStaysPending() {
        String booking = unique("bk");
        postPayment(DEMO_KEY, unique("key"), paymentBody(booking, "pm_card_unavailable")).exchange()
                .expectStatus().isCreated()
                .expectHeader().valueEquals("ETag", "\"1\"")
                .expectBody()
                .jsonPath("$.status").isEqualTo("PENDING")
                .jsonPath("$.version").isEqualTo(1)
                .jsonPath("$.history.length()").isEqualTo(1);
        assertThat(count("select count(*) from sandbox_charges c join payments p on p.id = c.payment_id"
                + " where p.booking_id = $1", booking)).isZero();
    }

    @Test
    void retryIsRefusedUnlessThePaymentFailed() {
        String booking = unique("bk");
        String location = postPayment(DEMO_KEY, unique("key"), paymentBody(booking)).exchange()
                .expectStatus().isCreated().expectBody().returnResult().getResponseHeaders().getLocation().toString();
        String retryKey = unique("key");

        client.post().uri(location + "/retry").header("Authorization", "Bearer " + DEMO_KEY)
                .header("Idempotency-Key", retryKey).exchange()
                .expectStatus().isEqualTo(HttpStatus.CONFLICT)
                .expectHeader().contentType("application/problem+json")
                .expectBody()
                .jsonPath("$.code").isEqualTo("invalid_transition")
                .jsonPath("$.detail").value(d -> assertThat((String) d).contains("PROCESSING").contains("RETRY"));
        assertThat(count("select count(*) from idempotency_keys where idempotency_key = $1", retryKey)).isZero();
        client.get().uri(location).header("Authorization", "Bearer " + DEMO_KEY).exchange()
                .expectBody().jsonPath("$.version").isEqualTo(2).jsonPath("$.status").isEqualTo("PROCESSING");
    }
}
