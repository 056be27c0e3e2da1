package com.payorch.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.payorch.PaymentServiceApplication;
import com.payorch.connectors.sandbox.SandboxGatewayProperties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * The published development credentials (README: `sk_test_demo`, the sandbox webhook secret) are refused at
 * start-up on an external database, naming the key, unless `payments.allow-development-defaults=true`; on the
 * embedded database, or when allowed, the service starts and warns.
 */
@ExtendWith(OutputCaptureExtension.class)
class DevelopmentDefaultsIT {

    private static final String EXTERNAL = "spring.r2dbc.url=r2dbc:postgresql://db.internal:5432/payments";
    private static final String OWN_SECRET = "payments.gateway.sandbox.webhook-secret=whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final String ACME_AT_STRIPE = "payments.merchants.acme.routing=stripe";

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withUserConfiguration(DevelopmentDefaults.class);

    @Test
    void theDevelopmentApiKeyOnAnExternalDatabaseStopsTheStartUpNamingTheKey() {
        runner.withPropertyValues(EXTERNAL, OWN_SECRET, "payments.merchants.demo.api-key=sk_test_demo",
                        "payments.merchants.demo.routing=stripe", "payments.merchants.acme.api-key=sk_live_acme_7d1",
                        ACME_AT_STRIPE)
                .run(context -> assertThat(context).getFailure()
                        .hasMessageContaining("payments.merchants.demo.api-key")
                        .hasMessageNotContaining("payments.merchants.acme")
                        .hasMessageContaining("payments.allow-development-defaults=true"));
    }

    @Test
    void theDevelopmentWebhookSecretSetOrByDefaultStopsTheStartUp() {
        runner.withPropertyValues(EXTERNAL, "payments.merchants.acme.api-key=sk_live_acme_7d1")
                .run(context -> assertThat(context).getFailure()
                        .hasMessageContaining("payments.gateway.sandbox.webhook-secret"));
        runner.withPropertyValues(EXTERNAL, "payments.merchants.acme.api-key=sk_live_acme_7d1",
                        "payments.gateway.sandbox.webhook-secret=" + SandboxGatewayProperties.DEVELOPMENT_WEBHOOK_SECRET)
                .run(context -> assertThat(context).getFailure()
                        .hasMessageContaining("payments.gateway.sandbox.webhook-secret"));
    }

    @Test
    void theDevelopmentKeyAsADigestOrAsTheOperatorKeyIsRefusedToo() {
        String digest = java.util.HexFormat.of().formatHex(ApiKeys.sha256("sk_test_demo")).toUpperCase();
        runner.withPropertyValues("payments.db.embedded=false", OWN_SECRET,
                        "payments.merchants.acme.api-key-sha256=" + digest, "payments.operator.api-key=sk_test_demo")
                .run(context -> assertThat(context).getFailure()
                        .hasMessageContaining("payments.merchants.acme.api-key-sha256")
                        .hasMessageContaining("payments.operator.api-key"));
    }

    @Test
    void allowedKnowinglyItStartsAndWarns(CapturedOutput output) {
        runner.withPropertyValues(EXTERNAL, OWN_SECRET, "payments.merchants.demo.api-key=sk_test_demo",
                        "payments.allow-development-defaults=true")
                .run(context -> assertThat(context).hasNotFailed());
        assertThat(output).contains("WARN").contains("payments.merchants.demo.api-key")
                .contains("payments.allow-development-defaults=true");
    }

    @Test
    void onTheEmbeddedDatabaseItStartsAndWarns(CapturedOutput output) {
        runner.withPropertyValues("payments.merchants.demo.api-key=sk_test_demo")
                .run(context -> assertThat(context).hasNotFailed());
        assertThat(output).contains("WARN").contains("payments.merchants.demo.api-key")
                .contains("payments.gateway.sandbox.webhook-secret").contains("embedded database");
    }

    @Test
    void ownCredentialsAndRealConnectorsOnAnExternalDatabaseStartSilently(CapturedOutput output) {
        runner.withPropertyValues(EXTERNAL, OWN_SECRET, "payments.merchants.acme.api-key=sk_live_acme_7d1",
                        ACME_AT_STRIPE, "payments.merchants.acme.routing-by-currency.EUR=adyen,stripe",
                        "payments.operator.api-key=op_live_5e2")
                .run(context -> assertThat(context).hasNotFailed());
        assertThat(output).doesNotContain("development defaults");
    }

    /** Issue 22 finding 6: the sandbox takes no money, so a route naming it is a development default too. */
    @Test
    void aRouteNamingTheSandboxOnAnExternalDatabaseStopsTheStartUpNamingTheKey() {
        runner.withPropertyValues(EXTERNAL, OWN_SECRET, "payments.merchants.acme.api-key=sk_live_acme_7d1",
                        "payments.merchants.acme.routing=stripe, Sandbox")
                .run(context -> assertThat(context).getFailure()
                        .hasMessageContaining("payments.merchants.acme.routing")
                        .hasMessageContaining("payments.allow-development-defaults=true"));
        runner.withPropertyValues(EXTERNAL, OWN_SECRET, "payments.merchants.acme.api-key=sk_live_acme_7d1",
                        ACME_AT_STRIPE, "payments.merchants.acme.routing-by-currency.JPY=sandbox")
                .run(context -> assertThat(context).getFailure()
                        .hasMessageContaining("payments.merchants.acme.routing-by-currency.JPY")
                        .hasMessageNotContaining("payments.merchants.acme.routing "));
    }

    @Test
    void aMerchantWithoutARouteGoesToTheSandboxByDefaultAndIsRefusedToo() {
        runner.withPropertyValues(EXTERNAL, OWN_SECRET, "payments.merchants.acme.api-key=sk_live_acme_7d1")
                .run(context -> assertThat(context).getFailure()
                        .hasMessageContaining("payments.merchants.acme.routing (unset: the sandbox)"));
    }

    @Test
    void aSandboxRouteAllowedKnowinglyStartsAndWarns(CapturedOutput output) {
        runner.withPropertyValues(EXTERNAL, OWN_SECRET, "payments.merchants.acme.api-key=sk_live_acme_7d1",
                        "payments.merchants.acme.routing=sandbox", "payments.allow-development-defaults=true")
                .run(context -> assertThat(context).hasNotFailed());
        assertThat(output).contains("WARN").contains("payments.merchants.acme.routing");
    }

    /** The real application with its shipped application.yml, pointed at an external database: it does not start. */
    @Test
    void theShippedConfigurationOnAnExternalDatabaseDoesNotStart() {
        assertThatThrownBy(() -> new SpringApplicationBuilder(PaymentServiceApplication.class)
                .run("--server.port=0", "--spring.r2dbc.url=r2dbc:postgresql://localhost:1/nowhere"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("payments.merchants.demo.api-key")
                .hasMessageContaining("payments.gateway.sandbox.webhook-secret");
    }
}
