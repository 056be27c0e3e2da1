package com.payorch.database;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.testsupport.TestQueries;
import java.nio.file.Path;

import io.r2dbc.spi.ConnectionFactoryOptions;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration;
import org.springframework.boot.r2dbc.autoconfigure.R2dbcAutoConfiguration;
import org.springframework.boot.r2dbc.autoconfigure.R2dbcConnectionDetails;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

class EmbeddedDatabaseAutoConfigurationIT {

    @TempDir
    Path tempDir;

    private ApplicationContextRunner runnerOn(Path dataDir) {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(EmbeddedDatabaseAutoConfiguration.class,
                        R2dbcAutoConfiguration.class, FlywayAutoConfiguration.class))
                .withPropertyValues("payments.db.data-dir=" + dataDir,
                        "spring.flyway.locations=classpath:db/testmigration");
    }

    @Test
    void migratesWithFlywayAndKeepsCommittedRowsAcrossRestarts() {
        Path dataDir = tempDir.resolve("not/yet/created/postgres");

        runnerOn(dataDir).run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(EmbeddedPostgres.class).hasSingleBean(Flyway.class);
            assertThat(TestQueries.of(context).text("select version from flyway_schema_history where success"))
                    .isEqualTo("1");
            assertThat(TestQueries.of(context).update("insert into probe (id, note) values (1, 'acknowledged')"))
                    .isEqualTo(1);
        });
        assertThat(dataDir.resolve("PG_VERSION")).exists();
        assertThat(dataDir.resolve("postmaster.pid")).as("postgres stopped on context close").doesNotExist();

        runnerOn(dataDir).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(TestQueries.of(context).text("select note from probe where id = 1")).isEqualTo("acknowledged");
            assertThat(TestQueries.of(context).text("select current_database()")).isEqualTo("payments");
        });
    }

    @Test
    void runsPostgresWithDurableSettings() {
        runnerOn(tempDir.resolve("postgres")).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(TestQueries.of(context).text("show fsync")).isEqualTo("on");
            assertThat(TestQueries.of(context).text("show synchronous_commit")).isEqualTo("on");
            assertThat(TestQueries.of(context).text("show full_page_writes")).isEqualTo("on");
        });
    }

    @Test
    void explicitEmbeddedTrueWinsOverR2dbcUrl() {
        runnerOn(tempDir.resolve("postgres"))
                .withPropertyValues("payments.db.embedded=true", "spring.r2dbc.url=r2dbc:postgresql://localhost:1/elsewhere")
                .run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(EmbeddedPostgres.class);
                    assertThat(TestQueries.of(context).text("select current_database()")).isEqualTo("payments");
                });
    }

    @Test
    void backsOffWhenR2dbcUrlIsSet() {
        onlyEmbeddedAutoConfiguration()
                .withPropertyValues("spring.r2dbc.url=r2dbc:postgresql://localhost:5432/payments")
                .run(context -> assertThat(context).hasNotFailed()
                        .doesNotHaveBean(EmbeddedPostgres.class)
                        .doesNotHaveBean(EmbeddedPostgresConnectionDetails.class));
    }

    @Test
    void backsOffWhenDisabled() {
        onlyEmbeddedAutoConfiguration()
                .withPropertyValues("payments.db.embedded=false")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(EmbeddedPostgres.class));
    }

    @Test
    void backsOffWhenR2dbcConnectionDetailsExist() {
        R2dbcConnectionDetails serviceConnection =
                () -> ConnectionFactoryOptions.parse("r2dbc:postgresql://localhost:5432/payments");
        onlyEmbeddedAutoConfiguration()
                .withBean(R2dbcConnectionDetails.class, () -> serviceConnection)
                .run(context -> assertThat(context).hasNotFailed()
                        .doesNotHaveBean(EmbeddedPostgres.class)
                        .getBean(R2dbcConnectionDetails.class).isSameAs(serviceConnection));
    }

    @Test
    void isRegisteredAsAnAutoConfiguration() {
        assertThat(ImportCandidates.load(AutoConfiguration.class, getClass().getClassLoader()))
                .contains(EmbeddedDatabaseAutoConfiguration.class.getName());
    }

    private ApplicationContextRunner onlyEmbeddedAutoConfiguration() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(EmbeddedDatabaseAutoConfiguration.class))
                .withPropertyValues("payments.db.data-dir=" + tempDir.resolve("never-used"));
    }
}
