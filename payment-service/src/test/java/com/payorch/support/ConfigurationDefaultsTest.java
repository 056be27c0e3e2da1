package com.payorch.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.payorch.confirmations.ConfirmationProperties;
import com.payorch.database.EmbeddedDatabaseProperties;
import com.payorch.idempotency.IdempotencyProperties;
import com.payorch.recovery.RecoveryProperties;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ClassPathResource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Each `payments.*` default lives in its properties record, is documented in the configuration metadata, and is not
 * repeated in application.yml.
 */
class ConfigurationDefaultsTest {

    /**
     * The payments.* keys application.yml may set: the development merchant and the development console user, on
     * purpose (both refused with an external database by DevelopmentDefaults).
     */
    private static final Set<String> SET_IN_APPLICATION_YML = Set.of("payments.merchants.demo.api-key",
            "payments.console.users.operator.password-bcrypt", "payments.console.users.operator.merchants");

    @Test
    void applicationYmlRepeatsNoDefault() throws IOException {
        List<PropertySource<?>> yml = new YamlPropertySourceLoader()
                .load("application.yml", new ClassPathResource("application.yml"));
        Set<String> paymentsKeys = new TreeSet<>();
        for (PropertySource<?> source : yml) {
            for (String name : ((EnumerablePropertySource<?>) source).getPropertyNames()) {
                if (name.startsWith("payments.")) {
                    paymentsKeys.add(name);
                }
            }
        }

        assertThat(paymentsKeys).containsExactlyInAnyOrderElementsOf(SET_IN_APPLICATION_YML);
    }

    @Test
    void everyPaymentsKeyHasMetadataWithADescription() throws IOException {
        JsonNode metadata;
        try (InputStream in = new ClassPathResource("META-INF/spring-configuration-metadata.json").getInputStream()) {
            metadata = JsonMapper.builder().build().readTree(in);
        }
        Map<String, JsonNode> properties = new TreeMap<>();
        metadata.get("properties").forEach(property -> properties.put(property.get("name").asText(), property));

        assertThat(properties.keySet()).contains("payments.merchants", "payments.db.data-dir",
                "payments.idempotency.retention", "payments.outbox.batch-size", "payments.recovery.pending-after",
                "payments.confirmations.from", "payments.gateway.sandbox.webhook-secret",
                "payments.gateway.sandbox.delivery.max-attempts", "payments.gateway.sandbox.poll-interval",
                "payments.benchmark.noop-endpoint");
        assertThat(properties.values()).filteredOn(p -> p.get("name").asText().startsWith("payments."))
                .allSatisfy(p -> assertThat(p.path("description").asText()).as(p.get("name").asText())
                        .isNotBlank());
        assertThat(properties.get("payments.idempotency.retention").get("defaultValue").asText()).isEqualTo("PT24H");
        assertThat(properties.get("payments.gateway.sandbox.delivery.max-attempts").get("defaultValue").asInt())
                .isEqualTo(5);
    }

    @Test
    void defaultsLiveInTheRecords() {
        IdempotencyProperties idempotency = bind("payments.idempotency", IdempotencyProperties.class, Map.of());
        assertThat(idempotency.retention()).isEqualTo(Duration.ofHours(24));
        assertThat(idempotency.lockTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(idempotency.cleanupInterval()).isEqualTo(Duration.ofMinutes(1));
        assertThat(idempotency.cleanupBatchSize()).isEqualTo(1000);

        RecoveryProperties recovery = bind("payments.recovery", RecoveryProperties.class, Map.of());
        assertThat(recovery.pendingAfter()).isEqualTo(Duration.ofSeconds(30));
        assertThat(recovery.processingAfter()).isEqualTo(Duration.ofMinutes(5));
        assertThat(recovery.interval()).isEqualTo(Duration.ofSeconds(5));
        assertThat(recovery.batchSize()).isEqualTo(20);

        ConfirmationProperties confirmations = bind("payments.confirmations", ConfirmationProperties.class, Map.of());
        assertThat(confirmations.from()).isEqualTo("bookings@payorch.local");
        assertThat(confirmations.claimTimeout()).isEqualTo(Duration.ofMinutes(2));

        EmbeddedDatabaseProperties db = bind("payments.db", EmbeddedDatabaseProperties.class, Map.of());
        assertThat(db.embedded()).isNull();
        assertThat(db.absoluteDataDir()).isEqualTo(Path.of("data/postgres").toAbsolutePath());
    }

    @Test
    void valuesThatCannotWorkStopTheStart() {
        assertThatThrownBy(() -> bind("payments.idempotency", IdempotencyProperties.class,
                Map.of("payments.idempotency.cleanup-batch-size", "0")))
                .isInstanceOf(BindException.class).rootCause().hasMessageContaining("cleanup-batch-size");
        assertThatThrownBy(() -> bind("payments.recovery", RecoveryProperties.class,
                Map.of("payments.recovery.batch-size", "0")))
                .isInstanceOf(BindException.class).rootCause().hasMessageContaining("batch-size");
        assertThatThrownBy(() -> bind("payments.confirmations", ConfirmationProperties.class,
                Map.of("payments.confirmations.from", " ")))
                .isInstanceOf(BindException.class).rootCause().hasMessageContaining("payments.confirmations.from");
    }

    private static <T> T bind(String prefix, Class<T> type, Map<String, String> values) {
        return new Binder(new MapConfigurationPropertySource(values)).bindOrCreate(prefix, type);
    }
}
