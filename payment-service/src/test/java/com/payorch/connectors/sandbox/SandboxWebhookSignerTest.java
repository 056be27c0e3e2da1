package com.payorch.connectors.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.payorch.testsupport.SignedWebhooks;
import com.standardwebhooks.Webhook;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** What the sandbox sends is what a Standard Webhooks receiver, the spec's own library, accepts. */
class SandboxWebhookSignerTest {

    private static final String SECRET = "whsec_d0BFmsU0VGMdJ9HDLxiqpaqFttUk0N9DueT0Sgghp/I=";
    private static final String BODY = """
            {"type":"payment.succeeded","data":{"paymentId":"pay_1","amount":12000,"currency":"JPY"}}""";

    private final SandboxWebhookSigner signer = new SandboxWebhookSigner(new Binder(new MapConfigurationPropertySource(
            Map.of("payments.gateway.sandbox.webhook-secret", SECRET)))
            .bindOrCreate("payments.gateway.sandbox", SandboxGatewayProperties.class));

    @Test
    void signsWhatTheStandardWebhooksLibraryVerifies() throws Exception {
        Instant now = Instant.now();
        var signed = signer.sign("msg_1", now, BODY.getBytes(StandardCharsets.UTF_8));

        new Webhook(SECRET).verify(BODY, Map.of(
                "webhook-id", List.of(signed.getFirst("webhook-id")),
                "webhook-timestamp", List.of(signed.getFirst("webhook-timestamp")),
                "webhook-signature", List.of(signed.getFirst("webhook-signature"))));
        assertThat(signed).isEqualTo(SignedWebhooks.sign(SECRET, "msg_1", now, BODY));
    }

    @Test
    void refusesABodyThatIsNotUtf8() {
        byte[] latin1 = "{\"note\":\"café\"}".getBytes(StandardCharsets.ISO_8859_1);

        assertThatThrownBy(() -> signer.sign("msg_1", Instant.now(), latin1))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
