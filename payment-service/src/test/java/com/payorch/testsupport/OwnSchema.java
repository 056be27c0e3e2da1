package com.payorch.testsupport;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactories;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;
import org.springframework.test.context.TestContextAnnotationUtils;

/**
 * The test's service works in a PostgreSQL schema of its own in the shared test database: migrated there by Flyway
 * and used by R2DBC. Every cached test context runs pollers (outbox relay, sandbox settlement, recovery); a schema of
 * its own keeps the other contexts' pollers away from this test's rows, and this test's pollers away from theirs.
 * For a service started by hand, {@link Settings#commandLine(String)} gives the same settings as arguments.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ContextCustomizerFactories(OwnSchema.Factory.class)
public @interface OwnSchema {

    /** The schema's name; Flyway creates it. */
    String value();

    /** The settings that put a service in a schema of its own: the one place they are written. */
    final class Settings {

        private Settings() {
        }

        public static Map<String, Object> of(String schema) {
            Map<String, Object> settings = new LinkedHashMap<>();
            settings.put("spring.r2dbc.properties.schema", schema);
            settings.put("spring.flyway.schemas", schema);
            settings.put("spring.flyway.default-schema", schema);
            return settings;
        }

        /** As command-line arguments ({@code --key=value}), which win over application.yml. */
        public static List<String> commandLine(String schema) {
            return of(schema).entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue()).toList();
        }
    }

    /** Finds {@link OwnSchema} on the test class (or a superclass) and adds its settings to the context. */
    final class Factory implements ContextCustomizerFactory {

        @Override
        public ContextCustomizer createContextCustomizer(Class<?> testClass,
                                                         List<ContextConfigurationAttributes> configAttributes) {
            OwnSchema ownSchema = TestContextAnnotationUtils.findMergedAnnotation(testClass, OwnSchema.class);
            return ownSchema == null ? null : new Customizer(ownSchema.value());
        }
    }

    /** A record, so contexts with the same schema are equal and cached as one. */
    record Customizer(String schema) implements ContextCustomizer {

        @Override
        public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration config) {
            context.getEnvironment().getPropertySources()
                    .addFirst(new MapPropertySource("ownSchema[" + schema + "]", Settings.of(schema)));
        }
    }
}
