package com.payorch.holds;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.payments.PaymentQueries;
import com.payorch.payments.PaymentStateChanges;
import com.payorch.payments.TransitionOrigin;
import com.payorch.payments.TransitionSource;
import com.payorch.statemachine.PaymentEvent;
import com.payorch.testsupport.ApiTest;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.reactive.TransactionalOperator;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Bad capture and cancel requests (and a bad capture method on create) over real HTTP: each is the contract's 4xx
 * with its code, changes no row, stores no idempotency key, and leaves the key usable for a good request.
 */
class HoldBadInputIT extends ApiTest {

    @Autowired
    PaymentQueries payments;
    @Autowired
    PaymentStateChanges stateChanges;
    @Autowired
    TransactionalOperator transaction;

    /** A manual payment the connector authorised (through the write path its webhook takes). */
    private String authorizedHold() {
        String id = createPaymentFromBody(holdBody(unique("bk"), "pm_card_ok"));
        transaction.transactional(payments.find("demo", id)
                        .flatMap(p -> stateChanges.apply(p, PaymentEvent.AUTHORIZE,
                                new TransitionOrigin(TransitionSource.WEBHOOK, unique("msg")))))
                .block(Duration.ofSeconds(10));
        assertThat(statusOf(id)).isEqualTo("AUTHORIZED");
        return id;
    }

    static String holdBody(String booking, String paymentMethod) {
        return """
                {"bookingId": "%s", "amount": 12000, "currency": "JPY", "paymentMethod": "%s",
                 "captureMethod": "manual"}""".formatted(booking, paymentMethod);
    }

    private WebTestClient.ResponseSpec post(String paymentId, String action, String key, String body) {
        WebTestClient.RequestBodySpec spec = client.post().uri("/v1/payments/" + paymentId + "/" + action)
                .header("Authorization", "Bearer " + DEMO_KEY)
                .header("Idempotency-Key", key)
                .header("Content-Type", "application/json");
        return (body == null ? spec : spec.bodyValue(body)).exchange();
    }

    private long version(String paymentId) {
        return count("select version from payments where id = $1", paymentId);
    }

    private long rowsOf(String paymentId) {
        return count("select (select count(*) from payment_transitions where payment_id = $1)"
                + " + (select count(*) from events where payment_id = $1)"
                + " + (select count(*) from refunds where payment_id = $1)", paymentId);
    }

    private long keysNamed(String key) {
        return count("select count(*) from idempotency_keys where idempotency_key = $1", key);
    }

    @ParameterizedTest(name = "capture {0}")
    @CsvSource(delimiter = '|', textBlock = """
            # what                     | body                              | detail contains
            amount zero                | {"amount": 0}                     | Field 'amount' must be an integer from 1
            amount negative            | {"amount": -1}                    | Field 'amount' must be an integer from 1
            amount above capturable    | {"amount": 12001}                 | exceeds what payment
            amount over the limit      | {"amount": 100000000001}          | Field 'amount' must be an integer from 1
            amount not an integer      | {"amount": 12.5}                  | Field 'amount' must be an integer.
            amount a string            | {"amount": "5000"}                | Field 'amount' must be an integer.
            an unknown member          | {"amount": 5000, "tip": 1}        | Unknown field 'tip'.
            malformed JSON             | {"amount": 5000                   | ''
            not an object              | [5000]                            | The request body must be a JSON object.
            """)
    void aBadCaptureIsA400ThatChangesNothingAndLeavesTheKeyUsable(String what, String body, String detail) {
        String id = authorizedHold();
        long version = version(id);
        long rows = rowsOf(id);
        String key = unique("key");

        post(id, "capture", key, body).expectStatus().isBadRequest()
                .expectHeader().contentType("application/problem+json")
                .expectBody()
                .jsonPath("$.code").isEqualTo("invalid_request")
                .jsonPath("$.status").isEqualTo(400)
                .jsonPath("$.detail").value(d -> assertThat((String) d).as(what).contains(detail));

        assertThat(version(id)).isEqualTo(version);
        assertThat(rowsOf(id)).isEqualTo(rows);
        assertThat(statusOf(id)).isEqualTo("AUTHORIZED");
        assertThat(keysNamed(key)).isZero();
        post(id, "capture", key, "{\"amount\": 5000}").expectStatus().isOk()
                .expectBody().jsonPath("$.id").isEqualTo(id);
        assertThat(keysNamed(key)).isEqualTo(1);
    }

    @ParameterizedTest(name = "cancel {0}")
    @CsvSource(delimiter = '|', textBlock = """
            # what                     | body                                | detail contains
            reason too long            | {"reason": "%201"}                  | Field 'reason' must be at most 200 characters.
            reason with U+0000         | {"reason": "a\\u0000b"}             | Field 'reason' must not contain control characters
            reason with a bell         | {"reason": "a\\u0007b"}             | Field 'reason' must not contain control characters
            reason a number            | {"reason": 7}                       | Field 'reason' must be a string.
            an unknown member          | {"reason": "x", "amount": 1}        | Unknown field 'amount'.
            malformed JSON             | {"reason":                          | ''
            """)
    void aBadCancelIsA400ThatChangesNothingAndLeavesTheKeyUsable(String what, String body, String detail) {
        String id = authorizedHold();
        long version = version(id);
        long rows = rowsOf(id);
        String key = unique("key");

        post(id, "cancel", key, body.replace("%201", "x".repeat(201))).expectStatus().isBadRequest()
                .expectBody()
                .jsonPath("$.code").isEqualTo("invalid_request")
                .jsonPath("$.detail").value(d -> assertThat((String) d).as(what).contains(detail));

        assertThat(version(id)).isEqualTo(version);
        assertThat(rowsOf(id)).isEqualTo(rows);
        assertThat(count("select count(*) from payments where id = $1 and cancel_requested_at is null", id))
                .isEqualTo(1);
        assertThat(keysNamed(key)).isZero();
        post(id, "cancel", key, "{\"reason\": \"" + "x".repeat(200) + "\"}").expectStatus().isOk()
                .expectBody().jsonPath("$.cancelRequestedAt").isNotEmpty();
    }

    @ParameterizedTest(name = "If-Match {0} on {1}")
    @CsvSource({"'\"1\"', capture", "'W/\"3\"', capture", "'3', cancel", "'\"99\"', cancel"})
    void aStaleIfMatchIs412AndLeavesTheKeyUsable(String ifMatch, String action) {
        String id = authorizedHold();
        long version = version(id);
        String key = unique("key");

        client.post().uri("/v1/payments/" + id + "/" + action)
                .header("Authorization", "Bearer " + DEMO_KEY)
                .header("Idempotency-Key", key)
                .header("If-Match", ifMatch)
                .exchange()
                .expectStatus().isEqualTo(412)
                .expectBody().jsonPath("$.code").isEqualTo("version_mismatch");

        assertThat(version(id)).isEqualTo(version);
        assertThat(keysNamed(key)).isZero();
        client.post().uri("/v1/payments/" + id + "/" + action)
                .header("Authorization", "Bearer " + DEMO_KEY)
                .header("Idempotency-Key", key)
                .header("If-Match", "\"" + version + "\"")
                .exchange()
                .expectStatus().isOk();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"capture", "cancel"})
    void anEmptyBodyIsTheSameRequestAsAnEmptyObject(String action) {
        String id = authorizedHold();
        String key = unique("key");
        byte[] first = post(id, action, key, null).expectStatus().isOk().expectBody().returnResult()
                .getResponseBody();

        byte[] again = post(id, action, key, "{ }").expectStatus().isOk()
                .expectHeader().valueEquals("Idempotent-Replayed", "true")
                .expectBody().returnResult().getResponseBody();

        assertThat(again).isEqualTo(first);
    }

    @ParameterizedTest(name = "captureMethod {0}")
    @ValueSource(strings = {"\"MANUAL\"", "\"later\"", "\"\"", "true", "1", "{}"})
    void anInvalidCaptureMethodIsA400NamingTheFieldAndStoresNothing(String value) {
        String booking = unique("bk");
        String key = unique("key");
        String body = """
                {"bookingId": "%s", "amount": 12000, "currency": "JPY", "paymentMethod": "pm_card_ok",
                 "captureMethod": %s}""";

        postPayment(DEMO_KEY, key, body.formatted(booking, value)).exchange().expectStatus().isBadRequest()
                .expectBody().jsonPath("$.code").isEqualTo("invalid_request")
                .jsonPath("$.detail").value(d -> assertThat((String) d).contains("'captureMethod'"));

        assertThat(count("select count(*) from payments where booking_id = $1", booking)).isZero();
        assertThat(keysNamed(key)).isZero();
        postPayment(DEMO_KEY, key, body.formatted(booking, "\"manual\"")).exchange().expectStatus().isCreated()
                .expectBody().jsonPath("$.captureMethod").isEqualTo("manual");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"capture", "cancel"})
    void anotherMerchantsPaymentIsNotFoundAndStoresNothing(String action) {
        String id = authorizedHold();
        String key = unique("key");

        client.post().uri("/v1/payments/" + id + "/" + action)
                .header("Authorization", "Bearer " + OTHER_KEY)
                .header("Idempotency-Key", key)
                .exchange()
                .expectStatus().isNotFound()
                .expectBody().jsonPath("$.code").isEqualTo("not_found");

        assertThat(statusOf(id)).isEqualTo("AUTHORIZED");
        assertThat(keysNamed(key)).isZero();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"capture", "cancel"})
    void theIdempotencyKeyIsRequired(String action) {
        String id = authorizedHold();

        client.post().uri("/v1/payments/" + id + "/" + action)
                .header("Authorization", "Bearer " + DEMO_KEY)
                .exchange()
                .expectStatus().isBadRequest()
                .expectBody().jsonPath("$.code").isEqualTo("idempotency_key_missing");

        assertThat(statusOf(id)).isEqualTo("AUTHORIZED");
    }
}
