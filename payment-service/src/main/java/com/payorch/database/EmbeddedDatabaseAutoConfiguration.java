package com.payorch.database;

import java.io.IOException;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration;
import org.springframework.boot.r2dbc.autoconfigure.R2dbcAutoConfiguration;
import org.springframework.boot.r2dbc.autoconfigure.R2dbcConnectionDetails;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;

/**
 * Starts an embedded, durable PostgreSQL and points R2DBC and Flyway at it. Backs off when another
 * {@link R2dbcConnectionDetails} exists (e.g. a Testcontainers {@code @ServiceConnection}).
 */
@AutoConfiguration(before = {R2dbcAutoConfiguration.class, FlywayAutoConfiguration.class})
@ConditionalOnClass(EmbeddedPostgres.class)
@Conditional(OnEmbeddedDatabaseCondition.class)
@ConditionalOnMissingBean(R2dbcConnectionDetails.class)
@EnableConfigurationProperties(EmbeddedDatabaseProperties.class)
public class EmbeddedDatabaseAutoConfiguration {

    @Bean(destroyMethod = "close")
    EmbeddedPostgres embeddedPostgres(EmbeddedDatabaseProperties properties) throws IOException {
        return EmbeddedPostgresLauncher.start(properties.absoluteDataDir());
    }

    @Bean
    EmbeddedPostgresConnectionDetails embeddedPostgresConnectionDetails(EmbeddedPostgres embeddedPostgres) {
        return new EmbeddedPostgresConnectionDetails(embeddedPostgres.getPort());
    }

    @Bean
    static ConnectionFactoryDependsOnEmbeddedPostgres connectionFactoryDependsOnEmbeddedPostgres() {
        return new ConnectionFactoryDependsOnEmbeddedPostgres();
    }
}
