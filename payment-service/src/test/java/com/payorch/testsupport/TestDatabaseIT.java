package com.payorch.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

import io.r2dbc.spi.ConnectionFactories;
import io.r2dbc.spi.ConnectionFactoryOptions;
import org.junit.jupiter.api.Test;

import org.springframework.r2dbc.core.DatabaseClient;

class TestDatabaseIT {

    private final TestDatabase database = TestDatabase.get();

    @Test
    void answersSelectOneOverJdbc() throws Exception {
        try (Connection connection =
                     DriverManager.getConnection(database.jdbcUrl(), database.username(), database.password());
             Statement statement = connection.createStatement();
             ResultSet result = statement.executeQuery("select 1")) {
            assertThat(result.next()).isTrue();
            assertThat(result.getInt(1)).isEqualTo(1);
        }
    }

    @Test
    void answersSelectOneOverR2dbc() {
        ConnectionFactoryOptions options = ConnectionFactoryOptions.parse(database.r2dbcUrl()).mutate()
                .option(ConnectionFactoryOptions.USER, database.username())
                .option(ConnectionFactoryOptions.PASSWORD, database.password())
                .build();
        Integer one = DatabaseClient.create(ConnectionFactories.get(options))
                .sql("select 1").map(row -> row.get(0, Integer.class)).one()
                .block(Duration.ofSeconds(30));
        assertThat(one).isEqualTo(1);
    }

    @Test
    void isTheSameDatabaseForTheWholeJvm() {
        assertThat(TestDatabase.get()).isSameAs(database);
    }

    @Test
    void registersR2dbcAndFlywayPropertiesAndTurnsTheEmbeddedDatabaseOff() {
        Map<String, Supplier<Object>> properties = new LinkedHashMap<>();
        TestDatabase.register(properties::put);

        assertThat(properties.get("spring.r2dbc.url").get()).isEqualTo(database.r2dbcUrl());
        assertThat(properties.get("spring.r2dbc.username").get()).isEqualTo(database.username());
        assertThat(properties.get("spring.r2dbc.password").get()).isEqualTo(database.password());
        assertThat(properties.get("spring.flyway.url").get()).isEqualTo(database.jdbcUrl());
        assertThat(properties.get("spring.flyway.user").get()).isEqualTo(database.username());
        assertThat(properties.get("spring.flyway.password").get()).isEqualTo(database.password());
        assertThat(properties.get("payments.db.embedded").get()).isEqualTo("false");
    }

    @Test
    void parsesTheExternalDatabaseUrl() {
        TestDatabase external = TestDatabase.fromUrl("postgresql://app:s%3Acr+t@db.example:6543/payments");

        assertThat(external.kind()).isEqualTo(TestDatabase.Kind.EXTERNAL);
        assertThat(external.r2dbcUrl()).isEqualTo("r2dbc:postgresql://db.example:6543/payments");
        assertThat(external.jdbcUrl()).isEqualTo("jdbc:postgresql://db.example:6543/payments");
        assertThat(external.username()).isEqualTo("app");
        assertThat(external.password()).isEqualTo("s:cr+t");
        assertThat(external.toString()).doesNotContain("s:cr+t");
    }
}
