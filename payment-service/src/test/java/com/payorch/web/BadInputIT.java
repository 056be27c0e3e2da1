package com.payorch.web;

import static org.assertj.core.api.Assertions.assertThat;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import com.payorch.testsupport.ApiTest;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.http.HttpMethod;
import org.springframework.test.web.reactive.server.EntityExchangeResult;

/**
 * A corpus of bad requests: each answers a 4xx problem+json with a stable code, names the offending field where
 * there is one, shows nothing internal, and leaves no row behind for the merchant that sent it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BadInputIT extends ApiTest {

    private static final String INPUTS_KEY = "sk_test_inputs";
    private static final String VALID = """
            {"bookingId": "bk_inputs", "amount": 12000, "currency": "JPY", "paymentMethod": "pm_card_ok"}""";

    record Case(String name, HttpMethod method, String path, Map<String, String> headers, byte[] body, int status,
                String code, String detailMentions) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Case> corpus() {
        return Stream.of(
                post("malformed JSON", "{\"bookingId\": ", 400, "invalid_request", null),
                post("empty body", "", 400, "invalid_request", null),
                post("array instead of object", "[]", 400, "invalid_request", null),
                post("a bare string", "\"hello\"", 400, "invalid_request", null),
                post("trailing data", VALID + " {}", 400, "invalid_request", null),
                post("duplicate member", VALID.replace("{", "{\"amount\": 1, "), 400, "invalid_request", null),
                post("unknown member", VALID.replace("{", "{\"tip\": 5, "), 400, "invalid_request", "tip"),
                post("amount as a string", VALID.replace("12000", "\"12000\""), 400, "invalid_request", "amount"),
                post("amount with a fraction", VALID.replace("12000", "12000.5"), 400, "invalid_request", "amount"),
                post("amount in exponent form", VALID.replace("12000", "1.2e4"), 400, "invalid_request", "amount"),
                post("amount zero", VALID.replace("12000", "0"), 400, "invalid_request", "amount"),
                post("amount negative", VALID.replace("12000", "-5"), 400, "invalid_request", "amount"),
                post("amount over the limit", VALID.replace("12000", "100000000001"), 400, "invalid_request", "amount"),
                post("amount beyond a long", VALID.replace("12000", "99999999999999999999999"), 400, "invalid_request", "amount"),
                post("amount null", VALID.replace("12000", "null"), 400, "invalid_request", "amount"),
                post("amount missing", VALID.replace("\"amount\": 12000, ", ""), 400, "invalid_request", "amount"),
                post("currency lower case", VALID.replace("JPY", "jpy"), 400, "invalid_request", "currency"),
                post("currency unknown", VALID.replace("JPY", "XQZ"), 400, "invalid_request", "currency"),
                post("currency a number", VALID.replace("\"JPY\"", "392"), 400, "invalid_request", "currency"),
                post("bookingId too long", VALID.replace("bk_inputs", "b".repeat(65)), 400, "invalid_request", "bookingId"),
                post("bookingId with a space", VALID.replace("bk_inputs", "bk inputs"), 400, "invalid_request", "bookingId"),
                post("bookingId empty", VALID.replace("bk_inputs", ""), 400, "invalid_request", "bookingId"),
                post("bookingId an object", VALID.replace("\"bk_inputs\"", "{}"), 400, "invalid_request", "bookingId"),
                post("paymentMethod empty", VALID.replace("pm_card_ok", ""), 400, "invalid_request", "paymentMethod"),
                post("paymentMethod too long", VALID.replace("pm_card_ok", "p".repeat(65)), 400, "invalid_request", "paymentMethod"),
                post("customerEmail not an address", VALID.replace("{", "{\"customerEmail\": \"nobody\", "), 400, "invalid_request", "customerEmail"),
                post("customerEmail a number", VALID.replace("{", "{\"customerEmail\": 7, "), 400, "invalid_request", "customerEmail"),
                post("description too long", VALID.replace("{", "{\"description\": \"" + "d".repeat(501) + "\", "), 400, "invalid_request", "description"),
                // JSON escapes reach the service as real control characters; PostgreSQL refuses U+0000 in text.
                post("description with U+0000", VALID.replace("{", "{\"description\": \"Room\\u0000101\", "), 400, "invalid_request", "description"),
                post("description with a bell", VALID.replace("{", "{\"description\": \"Room\\u0007101\", "), 400, "invalid_request", "description"),
                post("description with U+0085", VALID.replace("{", "{\"description\": \"Room\\u0085101\", "), 400, "invalid_request", "description"),
                post("paymentMethod with U+0000", VALID.replace("pm_card_ok", "pm_card\\u0000ok"), 400, "invalid_request", "paymentMethod"),
                post("paymentMethod with a tab", VALID.replace("pm_card_ok", "pm_card\\tok"), 400, "invalid_request", "paymentMethod"),
                post("paymentMethod with a newline", VALID.replace("pm_card_ok", "pm_card_ok\\n"), 400, "invalid_request", "paymentMethod"),
                post("paymentMethod with DEL", VALID.replace("pm_card_ok", "pm_card\\u007fok"), 400, "invalid_request", "paymentMethod"),
                post("customerEmail with U+0000", VALID.replace("{", "{\"customerEmail\": \"\\\"a\\u0000b\\\"@example.com\", "), 400, "invalid_request", "customerEmail"),
                post("bookingId with U+0000", VALID.replace("bk_inputs", "bk\\u0000inputs"), 400, "invalid_request", "bookingId"),
                post("currency with U+0000", VALID.replace("JPY", "JP\\u0000"), 400, "invalid_request", "currency"),
                new Case("retry body with U+0000 in a member name", HttpMethod.POST, "/v1/payments/pay_doesnotexist/retry",
                        headers("k-retry-nul"), "{\"a\\u0000\": 1}".getBytes(StandardCharsets.UTF_8), 400, "invalid_request", null),
                get("payment id with U+0000", "/v1/payments/pay_%00x", 400, "invalid_request", null),
                get("booking id with U+0000", "/v1/bookings/bk_%00x", 400, "invalid_request", null),
                get("list with a bookingId with U+0000", "/v1/payments?bookingId=bk_%00x", 400, "invalid_request", "bookingId"),
                get("events for a paymentId with U+0000", "/v1/events?paymentId=pay_%00x", 400, "invalid_request", null),
                get("events for a bookingId with U+0000", "/v1/events?bookingId=bk_%00x", 400, "invalid_request", null),
                get("charges for a paymentId with U+0000", "/v1/sandbox/charges?paymentId=pay_%00x", 400, "invalid_request", null),
                new Case("retry of a payment id with U+0000", HttpMethod.POST, "/v1/payments/pay_%00x/retry",
                        headers("k-retry-nul-id"), new byte[0], 400, "invalid_request", null),
                new Case("invalid UTF-8", HttpMethod.POST, "/v1/payments", headers("k-utf8"),
                        new byte[] {'{', '"', 'a', '"', ':', '"', (byte) 0xC3, (byte) 0x28, '"', '}'}, 400, "invalid_request", null),
                new Case("body over 64 KiB", HttpMethod.POST, "/v1/payments", headers("k-large"),
                        ("{\"description\": \"" + "x".repeat(70_000) + "\"}").getBytes(StandardCharsets.UTF_8), 413, "payload_too_large", null),
                new Case("no Idempotency-Key", HttpMethod.POST, "/v1/payments", Map.of("Authorization", "Bearer " + INPUTS_KEY),
                        VALID.getBytes(StandardCharsets.UTF_8), 400, "idempotency_key_missing", null),
                new Case("empty Idempotency-Key", HttpMethod.POST, "/v1/payments", headers(""),
                        VALID.getBytes(StandardCharsets.UTF_8), 400, "idempotency_key_invalid", null),
                new Case("quoted empty Idempotency-Key", HttpMethod.POST, "/v1/payments", headers("\"\""),
                        VALID.getBytes(StandardCharsets.UTF_8), 400, "idempotency_key_invalid", null),
                new Case("Idempotency-Key of 256 characters", HttpMethod.POST, "/v1/payments", headers("k".repeat(256)),
                        VALID.getBytes(StandardCharsets.UTF_8), 400, "idempotency_key_invalid", null),
                new Case("Idempotency-Key with a space", HttpMethod.POST, "/v1/payments", headers("two words"),
                        VALID.getBytes(StandardCharsets.UTF_8), 400, "idempotency_key_invalid", null),
                new Case("no API key", HttpMethod.POST, "/v1/payments", Map.of("Idempotency-Key", "k-noauth"),
                        VALID.getBytes(StandardCharsets.UTF_8), 401, "unauthenticated", null),
                new Case("unknown API key", HttpMethod.POST, "/v1/payments",
                        Map.of("Authorization", "Bearer sk_test_nobody", "Idempotency-Key", "k-badauth"),
                        VALID.getBytes(StandardCharsets.UTF_8), 401, "unauthenticated", null),
                new Case("basic instead of bearer", HttpMethod.POST, "/v1/payments",
                        Map.of("Authorization", "Basic ZGVtbzpkZW1v", "Idempotency-Key", "k-basic"),
                        VALID.getBytes(StandardCharsets.UTF_8), 401, "unauthenticated", null),
                get("list with an invalid bookingId", "/v1/payments?bookingId=bk%20x", 400, "invalid_request", "bookingId"),
                get("list with limit 0", "/v1/payments?limit=0", 400, "invalid_request", "limit"),
                get("list with limit 101", "/v1/payments?limit=101", 400, "invalid_request", "limit"),
                get("list with limit not a number", "/v1/payments?limit=ten", 400, "invalid_request", "limit"),
                get("list with an empty limit", "/v1/payments?limit=", 400, "invalid_request", "limit"),
                get("list starting after an unknown id", "/v1/payments?starting_after=pay_doesnotexist", 400, "invalid_request", "starting_after"),
                get("list with an unknown status", "/v1/payments?status=REFUNDED", 400, "invalid_request", "status"),
                get("list with a lower-case status", "/v1/payments?status=failed", 400, "invalid_request", "status"),
                get("list with createdAfter not RFC 3339", "/v1/payments?createdAfter=yesterday", 400, "invalid_request", "createdAfter"),
                get("list with createdBefore without an offset", "/v1/payments?createdBefore=2026-11-30T10:00:00", 400, "invalid_request", "createdBefore"),
                get("events with limit 0", "/v1/events?limit=0", 400, "invalid_request", "limit"),
                get("events with limit 1000", "/v1/events?limit=1000", 400, "invalid_request", "limit"),
                get("events starting after an unknown id", "/v1/events?starting_after=evt_doesnotexist", 400, "invalid_request", "starting_after"),
                post("metadata not an object", VALID.replace("{", "{\"metadata\": [\"a\"], "), 400, "invalid_request", "metadata"),
                post("metadata a string", VALID.replace("{", "{\"metadata\": \"a=b\", "), 400, "invalid_request", "metadata"),
                post("metadata with 21 keys", VALID.replace("{", "{\"metadata\": " + metadataWithKeys(21) + ", "), 400, "invalid_request", "metadata"),
                post("metadata key too long", VALID.replace("{", "{\"metadata\": {\"" + "k".repeat(41) + "\": \"v\"}, "), 400, "invalid_request", "metadata"),
                post("metadata key empty", VALID.replace("{", "{\"metadata\": {\"\": \"v\"}, "), 400, "invalid_request", "metadata"),
                post("metadata key with a space", VALID.replace("{", "{\"metadata\": {\"order id\": \"v\"}, "), 400, "invalid_request", "metadata"),
                post("metadata value a number", VALID.replace("{", "{\"metadata\": {\"order\": 7}, "), 400, "invalid_request", "metadata.order"),
                post("metadata value null", VALID.replace("{", "{\"metadata\": {\"order\": null}, "), 400, "invalid_request", "metadata.order"),
                post("metadata value an object", VALID.replace("{", "{\"metadata\": {\"order\": {}}, "), 400, "invalid_request", "metadata.order"),
                post("metadata value too long", VALID.replace("{", "{\"metadata\": {\"note\": \"" + "v".repeat(501) + "\"}, "), 400, "invalid_request", "metadata.note"),
                post("metadata value with a control character", VALID.replace("{", "{\"metadata\": {\"note\": \"a\\u0000b\"}, "), 400, "invalid_request", "metadata.note"),
                post("metadata value with a newline", VALID.replace("{", "{\"metadata\": {\"note\": \"a\\nb\"}, "), 400, "invalid_request", "metadata.note"),
                get("unknown payment", "/v1/payments/pay_doesnotexist", 404, "not_found", null),
                get("unknown booking", "/v1/bookings/bk_doesnotexist", 404, "not_found", null),
                get("unknown event type", "/v1/events?type=payment.exploded", 400, "invalid_request", "type"),
                get("charges without paymentId", "/v1/sandbox/charges", 400, "invalid_request", "paymentId"),
                get("unknown path", "/v1/nothing-here", 404, "not_found", null),
                new Case("retry of an unknown payment", HttpMethod.POST, "/v1/payments/pay_doesnotexist/retry",
                        headers("k-retry-unknown"), new byte[0], 404, "not_found", null),
                refund("refund amount zero", "{\"amount\": 0}", 400, "invalid_request", "amount"),
                refund("refund amount negative", "{\"amount\": -1}", 400, "invalid_request", "amount"),
                refund("refund amount a string", "{\"amount\": \"5000\"}", 400, "invalid_request", "amount"),
                refund("refund amount with a fraction", "{\"amount\": 50.5}", 400, "invalid_request", "amount"),
                refund("refund amount beyond a long", "{\"amount\": 99999999999999999999999}", 400, "invalid_request", "amount"),
                refund("refund reason too long", "{\"reason\": \"" + "r".repeat(201) + "\"}", 400, "invalid_request", "reason"),
                refund("refund reason with U+0000", "{\"reason\": \"a\\u0000b\"}", 400, "invalid_request", "reason"),
                refund("refund reason with a newline", "{\"reason\": \"a\\nb\"}", 400, "invalid_request", "reason"),
                refund("refund reason a number", "{\"reason\": 7}", 400, "invalid_request", "reason"),
                refund("refund unknown member", "{\"currency\": \"JPY\"}", 400, "invalid_request", "currency"),
                refund("refund body an array", "[]", 400, "invalid_request", null),
                refund("refund of an unknown payment", "{\"amount\": 100}", 404, "not_found", null),
                new Case("refund without Idempotency-Key", HttpMethod.POST, "/v1/payments/pay_doesnotexist/refunds",
                        Map.of("Authorization", "Bearer " + INPUTS_KEY), "{}".getBytes(StandardCharsets.UTF_8), 400,
                        "idempotency_key_missing", null),
                get("unknown refund", "/v1/refunds/re_doesnotexist", 404, "not_found", null),
                get("refunds of an unknown payment", "/v1/payments/pay_doesnotexist/refunds", 404, "not_found", null),
                get("refund id with U+0000", "/v1/refunds/re_%00x", 400, "invalid_request", null),
                new Case("PUT on the collection", HttpMethod.PUT, "/v1/payments", headers("k-put"),
                        VALID.getBytes(StandardCharsets.UTF_8), 405, "method_not_allowed", null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void answersAProblemAndStoresNothing(Case c) throws Exception {
        WebTestClientSpec request = new WebTestClientSpec(c);
        EntityExchangeResult<byte[]> result = request.send();

        assertThat(result.getStatus().value()).as(c.name()).isEqualTo(c.status());
        assertThat(result.getResponseHeaders().getContentType()).hasToString("application/problem+json");
        String text = new String(result.getResponseBody(), StandardCharsets.UTF_8);
        JsonNode problem = new ObjectMapper().readTree(text);
        assertThat(problem.path("code").asText()).isEqualTo(c.code());
        assertThat(problem.path("status").asInt()).isEqualTo(c.status());
        assertThat(problem.path("type").asText()).isEqualTo("urn:payorch:problem:" + c.code());
        assertThat(problem.path("title").asText()).isNotBlank();
        assertThat(problem.path("detail").asText()).isNotBlank();
        if (c.detailMentions() != null) {
            assertThat(problem.path("detail").asText()).contains(c.detailMentions());
        }
        assertThat(text).doesNotContain("Exception").doesNotContain("com.payorch").doesNotContain("com.fasterxml")
                .doesNotContain("SQL");
        assertNoRowsForTheMerchant();
    }

    @AfterAll
    void noRowsAfterTheWholeCorpus() {
        assertNoRowsForTheMerchant();
    }

    private void assertNoRowsForTheMerchant() {
        assertThat(count("select count(*) from payments where merchant_id = 'inputs'")).isZero();
        assertThat(count("select count(*) from idempotency_keys where merchant_id = 'inputs'")).isZero();
        assertThat(count("select count(*) from bookings where merchant_id = 'inputs'")).isZero();
        assertThat(count("select count(*) from events where merchant_id = 'inputs'")).isZero();
        assertThat(count("select count(*) from refunds where merchant_id = 'inputs'")).isZero();
    }

    private final class WebTestClientSpec {
        private final Case c;

        WebTestClientSpec(Case c) {
            this.c = c;
        }

        EntityExchangeResult<byte[]> send() {
            // An absolute URI is sent as written, so percent-escapes such as %00 reach the server undecoded.
            var spec = client.method(c.method()).uri(URI.create("http://localhost:" + port + c.path()));
            c.headers().forEach(spec::header);
            if (c.body() != null && c.body().length > 0) {
                spec.header("Content-Type", "application/json");
                return spec.bodyValue(c.body()).exchange().expectBody().returnResult();
            }
            return spec.exchange().expectBody().returnResult();
        }
    }

    private static Case post(String name, String body, int status, String code, String mentions) {
        return new Case(name, HttpMethod.POST, "/v1/payments", headers("k-" + name.replace(' ', '-')),
                body.getBytes(StandardCharsets.UTF_8), status, code, mentions);
    }

    private static Case refund(String name, String body, int status, String code, String mentions) {
        return new Case(name, HttpMethod.POST, "/v1/payments/pay_doesnotexist/refunds",
                headers("k-" + name.replace(' ', '-')), body.getBytes(StandardCharsets.UTF_8), status, code, mentions);
    }

    private static String metadataWithKeys(int keys) {
        StringBuilder json = new StringBuilder("{");
        for (int i = 0; i < keys; i++) {
            json.append(i == 0 ? "" : ", ").append("\"k").append(i).append("\": \"v\"");
        }
        return json.append('}').toString();
    }

    private static Case get(String name, String path, int status, String code, String mentions) {
        return new Case(name, HttpMethod.GET, path, Map.of("Authorization", "Bearer " + INPUTS_KEY), null, status, code,
                mentions);
    }

    private static Map<String, String> headers(String idempotencyKey) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Authorization", "Bearer " + INPUTS_KEY);
        headers.put("Idempotency-Key", idempotencyKey);
        return headers;
    }
}
