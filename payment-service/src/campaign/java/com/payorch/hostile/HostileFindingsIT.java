package com.payorch.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.fakes.FakeStripe;
import com.payorch.testsupport.ApiTest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.http.MediaType;
import org.springframework.test.context.TestPropertySource;
import org.springframework.web.reactive.function.BodyInserters;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * One focused test per defect HostileInputIT's generator found (docs/reliability.md, "Bad input, at volume"): each
 * failed before its fix.
 */
@TestPropertySource(properties = {
        "payments.merchants.findings.api-key=sk_test_findings",
        "payments.merchants.findings.routing=stripe",
        "payments.merchants.findings.connectors.stripe.secret-key=sk_test_51FindingsStripeKeyDoNotLog00009",
        "payments.merchants.findings.connectors.stripe.webhook-secret=" + HostileFindingsIT.STRIPE_SECRET})
class HostileFindingsIT extends ApiTest {

    static final String STRIPE_SECRET = "whsec_FindingsEndpointSecretDoNotLog9";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private RawHttp.Response send(HostileRequest request) {
        try (RawHttp http = new RawHttp("localhost", port, Duration.ofSeconds(10))) {
            return http.exchange(request.toBytes(), request.isHead(), true);
        }
    }

    /** The request as the second on a kept-alive connection, after one refused before its body was read. */
    private RawHttp.Response sendSecond(HostileRequest request) {
        try (RawHttp http = new RawHttp("localhost", port, Duration.ofSeconds(10))) {
            HostileRequest first = new HostileRequest(0, HostileRequest.Category.API_KEY, "unknown key", "POST",
                    "/v1/payments").header("Authorization", "Bearer sk_unknown").header("Content-Type",
                    "application/json").json("{\"bookingId\": \"bk\"}");
            assertThat(http.exchange(first.toBytes(), false, false).status()).isEqualTo(401);
            return http.exchange(request.toBytes(), request.isHead(), true);
        }
    }

    private static JsonNode problem(RawHttp.Response response) {
        assertThat(response.header("content-type")).startsWith("application/problem+json");
        return JSON.readTree(response.body());
    }

    /** Found: a number whose exponent BigDecimal cannot hold (1E+2147483648) was a 500 (NumberFormatException). */
    @ParameterizedTest
    @ValueSource(strings = {"1E+2147483648", "1E-2147483649", "1e9999999999"})
    void aNumberBeyondWhatBigDecimalHoldsIsInvalidRequestNot500(String number) {
        String body = """
                {"bookingId": "%s", "amount": %s, "currency": "JPY", "paymentMethod": "pm_card_ok"}"""
                .formatted(unique("bk_number"), number);
        postPayment(DEMO_KEY, unique("key"), body).exchange()
                .expectStatus().isBadRequest()
                .expectHeader().contentType("application/problem+json")
                .expectBody().jsonPath("$.code").isEqualTo("invalid_request");
    }

    /** Found: a correctly signed Stripe event whose PaymentIntent amount is beyond a long was a 500. */
    @ParameterizedTest
    @ValueSource(strings = {"9223372036854775808", "-9223372036854775809", "1" + "0000000000" + "0000000000"})
    void aSignedStripeEventWithAnAmountBeyondALongIsWebhookInvalidNot500(String amount) {
        String event = ("{\"id\": \"%s\", \"object\": \"event\", \"type\": \"payment_intent.succeeded\", \"data\":"
                + " {\"object\": {\"id\": \"pi_findings\", \"object\": \"payment_intent\", \"amount\": %s,"
                + " \"currency\": \"usd\", \"status\": \"succeeded\"}}}").formatted(unique("evt"), amount);
        stripeEvent(event);
    }

    /** The same for a Refund object inside a signed `refund.updated` event. */
    @Test
    void aSignedStripeRefundEventWithAnAmountBeyondALongIsWebhookInvalidNot500() {
        String event = ("{\"id\": \"%s\", \"object\": \"event\", \"type\": \"refund.updated\", \"data\":"
                + " {\"object\": {\"id\": \"re_findings\", \"object\": \"refund\", \"amount\": 9223372036854775808,"
                + " \"currency\": \"usd\", \"status\": \"succeeded\", \"metadata\": {\"refund_id\": \"re_x\","
                + " \"payment_id\": \"pay_x\"}}}}").formatted(unique("evt"));
        stripeEvent(event);
    }

    private void stripeEvent(String event) {
        client.post().uri("/v1/webhooks/stripe/findings")
                .header("Stripe-Signature", FakeStripe.sign(event, STRIPE_SECRET, Instant.now().getEpochSecond()))
                .header("Content-Type", "application/json")
                .bodyValue(event).exchange()
                .expectStatus().isBadRequest()
                .expectHeader().contentType("application/problem+json")
                .expectBody().jsonPath("$.code").isEqualTo("webhook_invalid");
        assertThat(count("select count(*) from webhook_receipts where webhook_id like 'stripe:evt_%' and webhook_id"
                + " like '%" + event.substring(8, 28).replace("\"", "") + "%'")).isZero();
    }

    /** Found: a request target without its leading slash was a 404 with an empty body. */
    @ParameterizedTest
    @ValueSource(strings = {"actuator/health/~", "v1/payments", "*", "http://evil.example/v1/payments"})
    void aTargetThatIsNotAnAbsolutePathGetsAProblem(String target) {
        HostileRequest request = new HostileRequest(0, HostileRequest.Category.PATH_METHOD, target, "GET", target)
                .header("Authorization", "Bearer " + DEMO_KEY);
        RawHttp.Response response = send(request);

        assertThat(response.status()).isBetween(200, 499);
        if (response.status() >= 400) {
            assertThat(problem(response).get("status").asInt()).isEqualTo(response.status());
        }
    }

    /** Found: bodies over 64 KiB to the retry and refund endpoints sometimes got no answer at all. */
    @ParameterizedTest
    @ValueSource(strings = {"/v1/payments/pay_nothing/retry", "/v1/payments/pay_nothing/refunds", "/v1/payments"})
    void anOversizeBodyIsAlways413(String path) {
        for (int i = 0; i < 20; i++) {
            HostileRequest request = new HostileRequest(i, HostileRequest.Category.BODY_OVERSIZE, "oversize", "POST",
                    path).header("Authorization", "Bearer " + DEMO_KEY).header("Idempotency-Key", unique("big"))
                    .header("Content-Type", "application/json")
                    .body(("{\"description\": \"" + "x".repeat(70_000) + "\"}").getBytes(StandardCharsets.UTF_8));
            RawHttp.Response response = i % 2 == 0 ? send(request) : sendSecond(request);

            assertThat(response.status()).as("attempt %d: %s", i, response.failure()).isEqualTo(413);
            assertThat(problem(response).get("code").asString()).isEqualTo("payload_too_large");
        }
    }

    /** Found: requests with framing Netty refuses sometimes got no answer at all. */
    @ParameterizedTest
    @ValueSource(strings = {"Content-Length: abc", "Content-Length: -1", "Content-Length: 99999999999999999999",
            "Transfer-Encoding: chunked|zz\r\nabc\r\n0\r\n\r\n"})
    void badFramingIsAlways400(String framing) {
        String[] parts = framing.split("\\|");
        for (int i = 0; i < 20; i++) {
            HostileRequest request = new HostileRequest(i, HostileRequest.Category.BODY_FRAMING, framing, "POST",
                    "/v1/payments").header("Authorization", "Bearer " + DEMO_KEY)
                    .header("Idempotency-Key", unique("framing")).header("Content-Type", "application/json")
                    .header(parts[0].substring(0, parts[0].indexOf(':')), parts[0].substring(parts[0].indexOf(':') + 2))
                    .body((parts.length > 1 ? parts[1] : "{}").getBytes(StandardCharsets.ISO_8859_1));
            request.contentLength = false;
            RawHttp.Response response = i % 2 == 0 ? send(request) : sendSecond(request);

            assertThat(response.status()).as("attempt %d: %s", i, response.failure()).isEqualTo(400);
            assertThat(problem(response).get("code").asString()).isEqualTo("invalid_request");
        }
    }

    /** Found: a request with `Connection: close` sent as the second on a kept-alive connection sometimes got no answer. */
    @ParameterizedTest
    @ValueSource(strings = {"X-Fine: yes", "Bad Name: x"})
    void aSecondRequestWithConnectionCloseIsAlwaysAnswered(String header) {
        for (int i = 0; i < 100; i++) {
            try (RawHttp http = new RawHttp("localhost", port, Duration.ofSeconds(5))) {
                HostileRequest first = new HostileRequest(i, HostileRequest.Category.QUERY, "first", "GET",
                        "/v1/payments?limit=1").header("Authorization", "Bearer " + DEMO_KEY);
                assertThat(http.exchange(first.toBytes(), false, false).status()).isEqualTo(200);
                HostileRequest second = new HostileRequest(i, HostileRequest.Category.HEADER_BYTES, "second", "GET",
                        "/v1/payments?limit=1").header("Authorization", "Bearer " + DEMO_KEY)
                        .header(header.substring(0, header.indexOf(':')), header.substring(header.indexOf(':') + 2));
                second.closeAfter = true;
                RawHttp.Response response = http.exchange(second.toBytes(), false, true);

                assertThat(response.status()).as("attempt %d: %s", i, response.failure())
                        .isEqualTo(header.startsWith("Bad") ? 400 : 200);
            }
        }
    }

    /** Found (long run): a health path with a non-ASCII segment made Spring Boot's health endpoint throw: 500. */
    @ParameterizedTest
    @ValueSource(strings = {"GET /actuator/health/%C3%A9/", "HEAD /actuator/health/deliveries/refunds/\u00e9/",
            "GET /actuator/health/%F0%9F%98%80"})
    void anUnknownHealthPathWithOddCharactersIsNotFoundNot500(String line) {
        String method = line.substring(0, line.indexOf(' '));
        HostileRequest request = new HostileRequest(0, HostileRequest.Category.PATH_METHOD, line, method,
                line.substring(line.indexOf(' ') + 1));
        RawHttp.Response response = send(request);

        assertThat(response.status()).isEqualTo(404);
        assertThat(response.header("content-type")).startsWith("application/problem+json");
    }

    /**
     * Found (contract v3): a correctly signed page token posted for a sandbox charge that no longer waits for its
     * customer was answered 409 "Nothing was changed", yet its nonce was recorded as used: a row in
     * sandbox_page_tokens left by a refused request.
     */
    @ParameterizedTest
    @ValueSource(strings = {"approve", "decline"})
    void aDecisionOnAChargeThatNoLongerWaitsLeavesNoRow(String decision) {
        String paymentId = createPayment(unique("bk_page"), "pm_card_ok");
        String chargeId = latestChargeOf(paymentId);
        String token = SandboxPageRequests.signedToken(WEBHOOK_SECRET, chargeId, unique("nonce"));

        client.post().uri("/sandbox/authenticate/" + chargeId).contentType(MediaType.APPLICATION_FORM_URLENCODED)
                .body(BodyInserters.fromFormData("token", token).with("decision", decision)).exchange()
                .expectStatus().isEqualTo(409)
                .expectHeader().contentTypeCompatibleWith(MediaType.TEXT_HTML);

        assertThat(count("select count(*) from sandbox_page_tokens where charge_id = $1", chargeId)).isZero();
    }

    /**
     * Found (contract v3): a form to the sandbox's page whose percent-encoding is broken (`token=%zz`, a trailing
     * `%`) was a 500: Spring's form reader throws URLDecoder's IllegalArgumentException.
     */
    @ParameterizedTest
    @ValueSource(strings = {"token=%zz&decision=approve", "token&decision&=&&==%", "token=a&decision=%E2%8"})
    void aFormWithBrokenPercentEncodingIsNotUnderstoodNot500(String form) {
        String paymentId = createPayment(unique("bk_page"), "pm_card_ok");
        HostileRequest request = new HostileRequest(0, HostileRequest.Category.SANDBOX_PAGE, form, "POST",
                "/sandbox/authenticate/" + latestChargeOf(paymentId))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .body(form.getBytes(StandardCharsets.ISO_8859_1));
        RawHttp.Response response = send(request);

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.header("content-type")).startsWith("text/html");
        assertThat(response.bodyText()).contains("Nothing was changed");
    }
}
