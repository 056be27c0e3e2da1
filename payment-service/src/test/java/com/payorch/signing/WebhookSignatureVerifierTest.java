package com.payorch.signing;

import com.payorch.signing.WebhookSecret;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.payorch.testsupport.SignedWebhooks;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.http.HttpHeaders;

class WebhookSignatureVerifierTest {

    private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final String OLD_SECRET = "whsec_BF0rlXvSMF2qDck812zj9a4QU9Ly3DfTg28DEQr0cho=";
    private static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");
    private static final String ID = "msg_ch_abc_succeeded";
    private static final String BODY_TEXT = """
            {"type":"payment.succeeded","data":{"paymentId":"pay_1","amount":12000,"currency":"JPY"}}""";
    private static final byte[] BODY = BODY_TEXT.getBytes(StandardCharsets.UTF_8);

    private final WebhookSignatureVerifier verifier =
            new WebhookSignatureVerifier(SECRET, Clock.fixed(NOW, ZoneOffset.UTC));

    @Test
    void acceptsAWebhookSignedWithTheConfiguredSecret() {
        assertThat(verifier.isValid(signed(SECRET, NOW), BODY)).isTrue();
    }

    @Test
    void matchesTheStandardWebhooksReferenceSignature() {
        // The example of the Standard Webhooks test suite: an independent check of what the library computes.
        HttpHeaders headers = new HttpHeaders();
        headers.set("webhook-id", "msg_p5jXN8AQM9LWM0D4loKWxJek");
        headers.set("webhook-timestamp", "1614265330");
        headers.set("webhook-signature", "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
        WebhookSignatureVerifier atThatTime = new WebhookSignatureVerifier(SECRET,
                Clock.fixed(Instant.ofEpochSecond(1614265330), ZoneOffset.UTC));

        assertThat(atThatTime.isValid(headers, "{\"test\": 2432232314}".getBytes(StandardCharsets.UTF_8))).isTrue();
        assertThat(atThatTime.isValid(headers, "{\"test\": 2432232315}".getBytes(StandardCharsets.UTF_8))).isFalse();
    }

    @Test
    void refusesABodyWithOneByteChanged() {
        byte[] changed = BODY.clone();
        changed[changed.length - 3]++;

        assertThat(verifier.isValid(signed(SECRET, NOW), changed)).isFalse();
    }

    @Test
    void refusesATruncatedSignature() {
        HttpHeaders headers = signed(SECRET, NOW);
        String signature = headers.getFirst("webhook-signature");
        headers.set("webhook-signature", signature.substring(0, signature.length() - 4));

        assertThat(verifier.isValid(headers, BODY)).isFalse();
    }

    @Test
    void refusesAWrongSecret() {
        assertThat(verifier.isValid(signed(OLD_SECRET, NOW), BODY)).isFalse();
    }

    @Test
    void acceptsAnyListedSignatureDuringASecretRotation() {
        HttpHeaders headers = signed(OLD_SECRET, NOW);
        headers.set("webhook-signature", SignedWebhooks.signature(OLD_SECRET, ID, NOW, BODY_TEXT) + " "
                + SignedWebhooks.signature(SECRET, ID, NOW, BODY_TEXT));

        assertThat(verifier.isValid(headers, BODY)).isTrue();
        assertThat(verifier.isValid(signed(OLD_SECRET, NOW), BODY)).isFalse();
    }

    @Test
    void acceptsAMatchAmongEntriesOfOtherVersionsAndGarbage() {
        HttpHeaders headers = signed(SECRET, NOW);
        String good = headers.getFirst("webhook-signature");
        headers.set("webhook-signature", "v1a,abc  v2," + good.substring(3) + " v1,%%%notbase64 garbage " + good);

        assertThat(verifier.isValid(headers, BODY)).isTrue();
    }

    @Test
    void refusesAGoodHmacListedUnderAnotherVersion() {
        HttpHeaders headers = signed(SECRET, NOW);
        String good = headers.getFirst("webhook-signature");
        headers.set("webhook-signature", "v2," + good.substring(3) + " v1");

        assertThat(verifier.isValid(headers, BODY)).isFalse();
    }

    @Test
    void acceptsTimestampsWithinFiveMinutesEitherWay() {
        assertThat(verifier.isValid(signed(SECRET, NOW.minusSeconds(299)), BODY)).isTrue();
        assertThat(verifier.isValid(signed(SECRET, NOW.plusSeconds(299)), BODY)).isTrue();
        assertThat(verifier.isValid(signed(SECRET, NOW.minusSeconds(300)), BODY)).isTrue();
    }

    @Test
    void refusesTimestampsMoreThanFiveMinutesOff() {
        assertThat(verifier.isValid(signed(SECRET, NOW.minusSeconds(301)), BODY)).isFalse();
        assertThat(verifier.isValid(signed(SECRET, NOW.plusSeconds(301)), BODY)).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"webhook-id", "webhook-timestamp", "webhook-signature"})
    void refusesAMissingHeader(String header) {
        HttpHeaders headers = signed(SECRET, NOW);
        headers.remove(header);

        assertThat(verifier.isValid(headers, BODY)).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"abc", "", " ", "1772359200.0", "-1772359200", "+1772359200", "01772359200",
            "99999999999999999999999"})
    void refusesATimestampThatIsNotPlainUnixSeconds(String timestamp) {
        HttpHeaders headers = signed(SECRET, NOW);
        headers.set("webhook-timestamp", timestamp);

        assertThat(verifier.isValid(headers, BODY)).isFalse();
    }

    @Test
    void refusesABodyThatIsNotUtf8() {
        byte[] latin1 = "{\"note\":\"café\"}".getBytes(StandardCharsets.ISO_8859_1);
        HttpHeaders headers = signed(SECRET, NOW);
        // What a sender would have signed had it read the bytes leniently: must not be accepted either.
        String lenient = new String(latin1, StandardCharsets.UTF_8);
        headers.set("webhook-signature", SignedWebhooks.signature(SECRET, ID, NOW, lenient));

        assertThat(verifier.isValid(headers, latin1)).isFalse();
    }

    @Test
    void refusesNullsWithoutThrowing() {
        assertThat(verifier.isValid(signed(SECRET, NOW), null)).isFalse();
        assertThat(verifier.isValid(new HttpHeaders(), BODY)).isFalse();
    }

    @Test
    void refusesToStartWithAMalformedSecretAndDoesNotEchoIt() {
        Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
        assertThatThrownBy(() -> new WebhookSignatureVerifier("whsec_not*base64", clock))
                .isInstanceOf(IllegalArgumentException.class)
                .message().doesNotContain("not*base64");
        assertThatThrownBy(() -> new WebhookSignatureVerifier("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", clock))
                .isInstanceOf(IllegalArgumentException.class)
                .message().doesNotContain("MfKQ9r8");
        assertThat(WebhookSecret.parse(SECRET).toString()).doesNotContain("MfKQ9r8");
    }

    private static HttpHeaders signed(String secret, Instant at) {
        return SignedWebhooks.sign(secret, ID, at, BODY);
    }
}
