package com.payorch.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.payorch.console.ConsoleProperties;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;

/**
 * The console's development user (README: {@code operator} / {@code operator-dev-password}) is a published
 * credential like {@code sk_test_demo}: with an external database the start-up is refused, naming the key, whether
 * the shipped hash or another hash of the same password is configured; an own password starts.
 */
class ConsoleDevelopmentUserIT {

    private static final String EXTERNAL = "spring.r2dbc.url=r2dbc:postgresql://db.internal:5432/payments";
    private static final String OWN_SECRET = "payments.gateway.sandbox.webhook-secret=whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withUserConfiguration(DevelopmentDefaults.class)
            .withPropertyValues(EXTERNAL, OWN_SECRET, "payments.merchants.acme.api-key=sk_live_acme_7d1",
                    "payments.merchants.acme.routing=stripe");

    @Test
    void theShippedHashOnAnExternalDatabaseStopsTheStartUpNamingTheKey() {
        runner.withPropertyValues("payments.console.users.operator.password-bcrypt="
                        + DevelopmentDefaults.DEVELOPMENT_CONSOLE_PASSWORD_BCRYPT,
                        "payments.console.users.operator.merchants=*")
                .run(context -> assertThat(context).getFailure()
                        .hasMessageContaining("payments.console.users.operator.password-bcrypt")
                        .hasMessageContaining("payments.allow-development-defaults=true"));
    }

    @Test
    void anotherHashOfThePublishedPasswordIsRefusedToo() {
        String rehashed = new BCryptPasswordEncoder().encode(DevelopmentDefaults.DEVELOPMENT_CONSOLE_PASSWORD);
        runner.withPropertyValues("payments.console.users.ops.password-bcrypt=" + rehashed)
                .run(context -> assertThat(context).getFailure()
                        .hasMessageContaining("payments.console.users.ops.password-bcrypt"));
    }

    @Test
    void anOwnPasswordStartsAndAllowedKnowinglyTheDevelopmentUserStarts() {
        String own = new BCryptPasswordEncoder().encode("a long password of our own");
        runner.withPropertyValues("payments.console.users.ops.password-bcrypt=" + own)
                .run(context -> assertThat(context).hasNotFailed());
        runner.withPropertyValues("payments.console.users.operator.password-bcrypt="
                        + DevelopmentDefaults.DEVELOPMENT_CONSOLE_PASSWORD_BCRYPT,
                        "payments.allow-development-defaults=true")
                .run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void usersBindWithTheirMerchantScopeAndAPlainPasswordIsNotAHash() {
        ConsoleProperties properties = new Binder(new MapConfigurationPropertySource(Map.of(
                "payments.console.users.a.password-bcrypt", DevelopmentDefaults.DEVELOPMENT_CONSOLE_PASSWORD_BCRYPT,
                "payments.console.users.a.merchants", "acme, globex",
                "payments.console.users.b.password-bcrypt", DevelopmentDefaults.DEVELOPMENT_CONSOLE_PASSWORD_BCRYPT,
                "payments.console.users.b.merchants", "*")))
                .bindOrCreate("payments.console", ConsoleProperties.class);
        assertThat(properties.users().get("a").scope().includes("globex")).isTrue();
        assertThat(properties.users().get("a").scope().includes("initech")).isFalse();
        assertThat(properties.users().get("b").scope().all()).isTrue();
        assertThat(properties.livePollInterval()).hasSeconds(1);

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new Binder(new MapConfigurationPropertySource(
                        Map.of("payments.console.users.c.password-bcrypt", "hunter2")))
                        .bindOrCreate("payments.console", ConsoleProperties.class))
                .rootCause().hasMessageContaining("payments.console.users.c.password-bcrypt")
                .hasMessageNotContaining("hunter2");
    }
}
