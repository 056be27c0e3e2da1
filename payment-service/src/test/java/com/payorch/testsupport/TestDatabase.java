package com.payorch.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.containers.PostgreSQLContainer;

import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * The PostgreSQL every test in this JVM uses, chosen once: the external database named by
 * {@code PAYMENTS_TEST_DB_URL} ({@code postgresql://user:password@host:port/database}), else a Testcontainers
 * PostgreSQL when Docker is available, else an embedded PostgreSQL in a temporary directory.
 */
public record TestDatabase(Kind kind, String r2dbcUrl, String jdbcUrl, String username, String password) {

    public enum Kind { EXTERNAL, TESTCONTAINERS, EMBEDDED }

    public static final String URL_VARIABLE = "PAYMENTS_TEST_DB_URL";

    private static final Logger log = LoggerFactory.getLogger(TestDatabase.class);

    public static TestDatabase get() {
        return Chosen.DATABASE;
    }

    /** For {@code @DynamicPropertySource}: points R2DBC and Flyway at the test database, embedded one off. */
    public static void register(DynamicPropertyRegistry registry) {
        registry.add("spring.r2dbc.url", () -> get().r2dbcUrl());
        registry.add("spring.r2dbc.username", () -> get().username());
        registry.add("spring.r2dbc.password", () -> get().password());
        registry.add("spring.flyway.url", () -> get().jdbcUrl());
        registry.add("spring.flyway.user", () -> get().username());
        registry.add("spring.flyway.password", () -> get().password());
        registry.add("payments.db.embedded", () -> "false");
    }

    /** Parses {@code postgresql://user:password@host:port/database[?query]}; the query is passed on as is. */
    static TestDatabase fromUrl(String url) {
        URI uri = URI.create(url.trim());
        if (!"postgresql".equals(uri.getScheme()) || uri.getHost() == null || uri.getRawUserInfo() == null) {
            throw new IllegalArgumentException(URL_VARIABLE
                    + " must look like postgresql://user:password@host:port/database");
        }
        String[] credentials = uri.getRawUserInfo().split(":", 2);
        String address = uri.getHost() + ":" + (uri.getPort() == -1 ? 5432 : uri.getPort()) + uri.getRawPath()
                + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        return new TestDatabase(Kind.EXTERNAL, "r2dbc:postgresql://" + address, "jdbc:postgresql://" + address,
                decode(credentials[0]), credentials.length > 1 ? decode(credentials[1]) : "");
    }

    private static String decode(String part) {
        return URLDecoder.decode(part.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    private static TestDatabase choose() {
        String url = System.getenv(URL_VARIABLE);
        TestDatabase database;
        if (url != null && !url.isBlank()) {
            database = fromUrl(url);
        } else if (DockerAvailability.isAvailable()) {
            database = startContainer();
        } else {
            database = startEmbedded();
        }
        log.info("Tests use the {} PostgreSQL at {}", database.kind(), database.jdbcUrl());
        return database;
    }

    @SuppressWarnings("resource") // Testcontainers' Ryuk removes the container when the JVM exits
    private static TestDatabase startContainer() {
        PostgreSQLContainer<?> container = new PostgreSQLContainer<>("postgres:17-alpine");
        container.start();
        String address = container.getHost() + ":" + container.getMappedPort(PostgreSQLContainer.POSTGRESQL_PORT)
                + "/" + container.getDatabaseName();
        return new TestDatabase(Kind.TESTCONTAINERS, "r2dbc:postgresql://" + address,
                container.getJdbcUrl(), container.getUsername(), container.getPassword());
    }

    // zonky's defaults (fsync off, data deleted by its JVM shutdown hook) are right for a throwaway test database.
    private static TestDatabase startEmbedded() {
        try {
            Path dataDir = Files.createTempDirectory("payments-test-postgres");
            EmbeddedPostgres postgres = EmbeddedPostgres.builder().setDataDirectory(dataDir).start();
            String address = "localhost:" + postgres.getPort() + "/postgres";
            return new TestDatabase(Kind.EMBEDDED, "r2dbc:postgresql://" + address,
                    "jdbc:postgresql://" + address, "postgres", "");
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start the embedded test PostgreSQL", e);
        }
    }

    @Override
    public String toString() {
        return "TestDatabase[" + kind + " " + jdbcUrl + " as " + username + "]";
    }

    private static final class Chosen {
        static final TestDatabase DATABASE = choose();
    }
}
