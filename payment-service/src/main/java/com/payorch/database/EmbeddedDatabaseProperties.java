package com.payorch.database;

import java.nio.file.Path;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code payments.db.*}: the embedded PostgreSQL that serves the service when no external database is configured.
 *
 * @param embedded Whether to start the embedded PostgreSQL: true forces it, false disables it; when absent it
 *                 is started unless spring.r2dbc.url is set.
 * @param dataDir  Where the embedded PostgreSQL keeps its data; relative paths resolve against the working
 *                 directory.
 */
@ConfigurationProperties("payments.db")
public record EmbeddedDatabaseProperties(Boolean embedded, @DefaultValue("./data/postgres") Path dataDir) {

    public Path absoluteDataDir() {
        return dataDir.toAbsolutePath().normalize();
    }
}
