package com.payorch.connectors.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class SandboxPageTokensTest {

    private final SandboxPageTokens tokens = new SandboxPageTokens(properties(
            SandboxGatewayProperties.DEVELOPMENT_WEBHOOK_SECRET));

    private static SandboxGatewayProperties properties(String secret) {
        return new SandboxGatewayProperties(WebhookMode.OFF, secret, Duration.ofMillis(500), null, false, false,
                new SandboxGatewayProperties.Delivery(5, Duration.ofMillis(500), Duration.ofSeconds(5),
                        Duration.ofSeconds(5), Duration.ofMinutes(1)), Duration.ofMillis(250), Duration.ofDays(30),
                URI.create("https://pay.example.com/"));
    }

    @Test
    void aTokenNamesItsNonceForItsChargeOnly() {
        String token = tokens.issue("ch_a");

        assertThat(tokens.nonceOf("ch_a", token)).hasValue(token.substring(0, token.indexOf('.')));
        assertThat(tokens.nonceOf("ch_b", token)).isEmpty();
    }

    @Test
    void everyPageViewGetsItsOwnNonce() {
        assertThat(tokens.issue("ch_a")).isNotEqualTo(tokens.issue("ch_a"));
    }

    @Test
    void aTokenSignedWithAnotherSecretOrMalformedIsRefused() {
        SandboxPageTokens other = new SandboxPageTokens(properties("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"));
        String token = tokens.issue("ch_a");
        String nonce = token.substring(0, token.indexOf('.'));

        assertThat(other.nonceOf("ch_a", token)).isEmpty();
        assertThat(tokens.nonceOf("ch_a", null)).isEmpty();
        assertThat(tokens.nonceOf("ch_a", nonce)).isEmpty();
        assertThat(tokens.nonceOf("ch_a", nonce + ".")).isEmpty();
        assertThat(tokens.nonceOf("ch_a", "." + token)).isEmpty();
        assertThat(tokens.nonceOf("ch_a", nonce + ".!!!")).isEmpty();
        assertThat(tokens.nonceOf("ch_a", token + "x".repeat(200))).isEmpty();
    }

    @Test
    void theConfiguredPublicUrlIsThePagesBase() {
        SandboxOwnAddress address = new SandboxOwnAddress(
                properties(SandboxGatewayProperties.DEVELOPMENT_WEBHOOK_SECRET));

        assertThat(address.authenticationPage("ch_a")).isEqualTo("https://pay.example.com/sandbox/authenticate/ch_a");
    }
}
