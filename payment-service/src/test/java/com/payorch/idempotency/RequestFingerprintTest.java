package com.payorch.idempotency;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.web.StrictJson;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RequestFingerprintTest {

    private final StrictJson json = new StrictJson();

    private String fingerprint(String method, String path, String body) {
        return RequestFingerprint.of(method, path, json.canonical(json.parse(body.getBytes(StandardCharsets.UTF_8))));
    }

    @Test
    void reserialisedButEqualJsonHasTheSameFingerprint() {
        String a = fingerprint("POST", "/v1/payments", "{\"b\":1,\"a\":{\"y\":[1,2],\"x\":\"s\"}}");
        String b = fingerprint("POST", "/v1/payments", " {\n \"a\" : { \"x\" : \"s\", \"y\" : [ 1, 2 ] },\n \"b\" : 1 } ");
        assertThat(a).isEqualTo(b).hasSize(64);
    }

    @Test
    void canonicalJsonSortsMembersAndDropsWhitespace() {
        byte[] canonical = json.canonical(json.parse("{ \"b\" : 1, \"a\" : { \"d\": true, \"c\": null } }".getBytes()));
        assertThat(new String(canonical, StandardCharsets.UTF_8)).isEqualTo("{\"a\":{\"c\":null,\"d\":true},\"b\":1}");
    }

    @Test
    void anyDifferenceInMethodPathOrBodyChangesTheFingerprint() {
        String base = fingerprint("POST", "/v1/payments", "{\"a\":1}");
        assertThat(fingerprint("POST", "/v1/payments", "{\"a\":2}")).isNotEqualTo(base);
        assertThat(fingerprint("POST", "/v1/payments/x/retry", "{\"a\":1}")).isNotEqualTo(base);
        assertThat(fingerprint("PUT", "/v1/payments", "{\"a\":1}")).isNotEqualTo(base);
        assertThat(fingerprint("POST", "/v1/payments", "{\"a\":[1]}")).isNotEqualTo(base);
    }
}
