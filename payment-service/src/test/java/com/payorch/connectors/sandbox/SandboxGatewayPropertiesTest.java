package com.payorch.connectors.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

class SandboxGatewayPropertiesTest {

    @Test
    void defaultsAreInTheCode() {
        SandboxGatewayProperties properties = bind(Map.of());

        assertThat(properties.webhooks()).isEqualTo(WebhookMode.AUTO);
        assertThat(properties.webhookSecret()).isEqualTo(SandboxGatewayProperties.DEVELOPMENT_WEBHOOK_SECRET);
        assertThat(properties.webhookDelay()).isEqualTo(Duration.ofMillis(500));
        assertThat(properties.webhookUrl()).isNull();
        assertThat(properties.deliverTwice()).isFalse();
        assertThat(properties.reverseOrder()).isFalse();
        assertThat(properties.delivery().maxAttempts()).isEqualTo(5);
        assertThat(properties.delivery().firstBackoff()).isEqualTo(Duration.ofMillis(500));
        assertThat(properties.delivery().maxBackoff()).isEqualTo(Duration.ofSeconds(5));
        assertThat(properties.delivery().requestTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(properties.delivery().giveUpAfter()).isEqualTo(Duration.ofMinutes(1));
    }

    @Test
    void oneDeliveryKeyKeepsTheOtherDeliveryDefaults() {
        SandboxGatewayProperties properties = bind(Map.of("payments.gateway.sandbox.delivery.max-attempts", "2"));

        assertThat(properties.delivery().maxAttempts()).isEqualTo(2);
        assertThat(properties.delivery().firstBackoff()).isEqualTo(Duration.ofMillis(500));
        assertThat(properties.delivery().giveUpAfter()).isEqualTo(Duration.ofMinutes(1));
        assertThat(properties.webhookDelay()).isEqualTo(Duration.ofMillis(500));
    }

    @Test
    void zeroDeliveryAttemptsStopTheStart() {
        assertThatThrownBy(() -> bind(Map.of("payments.gateway.sandbox.delivery.max-attempts", "0")))
                .isInstanceOf(BindException.class)
                .rootCause().hasMessageContaining("payments.gateway.sandbox.delivery.max-attempts");
    }

    @Test
    void yamlReadsAnUnquotedOffAsFalseWhichStillMeansOff() {
        assertThat(bind(Map.of("payments.gateway.sandbox.webhooks", "false")).webhooks()).isEqualTo(WebhookMode.OFF);
        assertThat(bind(Map.of("payments.gateway.sandbox.webhooks", "off")).webhooks()).isEqualTo(WebhookMode.OFF);
    }

    @Test
    void aMalformedSecretStopsTheStartWithoutShowingIt() {
        assertThatThrownBy(() -> bind(Map.of("payments.gateway.sandbox.webhook-secret", "hunter2")))
                .isInstanceOf(BindException.class)
                .rootCause().hasMessageContaining("whsec_").hasMessageNotContaining("hunter2");
    }

    private static SandboxGatewayProperties bind(Map<String, String> values) {
        return new Binder(new MapConfigurationPropertySource(values))
                .bindOrCreate("payments.gateway.sandbox", SandboxGatewayProperties.class);
    }
}
