package com.payorch.security;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/** API keys configured as themselves or as their SHA-256 hex digest; a malformed digest stops the start-up. */
class ApiKeysIT {

    static final String KEY = "sk_live_hashed_9f2c";
    static final String DIGEST = "5fd9ab6efca432703003f8cbd80b944123b3ddabbfbbbab2b567a73b9f47aa2b";

    @Configuration
    @EnableConfigurationProperties(MerchantProperties.class)
    @Import(ApiKeys.class)
    static class Keys {
    }

    private final ApplicationContextRunner runner = new ApplicationContextRunner().withUserConfiguration(Keys.class);

    @Test
    void aDigestFindsItsMerchantByThePlainKey() {
        runner.withPropertyValues("payments.merchants.acme.api-key-sha256=" + DIGEST,
                        "payments.merchants.plain.api-key=sk_live_plain_77")
                .run(context -> {
                    ApiKeys keys = context.getBean(ApiKeys.class);
                    assertThat(keys.merchantFor(KEY)).contains("acme");
                    assertThat(keys.merchantFor("sk_live_plain_77")).contains("plain");
                    assertThat(keys.merchantFor(DIGEST)).as("the digest is not a key").isEmpty();
                    assertThat(keys.merchantFor(KEY + " ")).isEmpty();
                    assertThat(keys.merchantFor("")).isEmpty();
                });
    }

    @Test
    void anUpperCaseDigestIsTheSameDigest() {
        runner.withPropertyValues("payments.merchants.acme.api-key-sha256=" + DIGEST.toUpperCase())
                .run(context -> assertThat(context.getBean(ApiKeys.class).merchantFor(KEY)).contains("acme"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"5fd9ab6efca432703003f8cbd80b944123b3ddabbfbbbab2b567a73b9f47aa2",
            "5fd9ab6efca432703003f8cbd80b944123b3ddabbfbbbab2b567a73b9f47aa2b0",
            "zfd9ab6efca432703003f8cbd80b944123b3ddabbfbbbab2b567a73b9f47aa2b",
            "sk_live_hashed_9f2c", "0x5fd9ab6efca432703003f8cbd80b944123b3ddabbfbbbab2b567a73b9f47aa"})
    void aMalformedDigestStopsTheStartUpNamingItsKey(String digest) {
        runner.withPropertyValues("payments.merchants.acme.api-key-sha256=" + digest)
                .run(context -> assertThat(context).getFailure()
                        .rootCause().hasMessageContaining("payments.merchants.acme.api-key-sha256")
                        .hasMessageContaining("64 hexadecimal digits"));
    }

    @Test
    void bothFormsForOneMerchantStopTheStartUp() {
        runner.withPropertyValues("payments.merchants.acme.api-key-sha256=" + DIGEST,
                        "payments.merchants.acme.api-key=" + KEY)
                .run(context -> assertThat(context).getFailure()
                        .rootCause().hasMessageContaining("payments.merchants.acme.api-key")
                        .hasMessageContaining("payments.merchants.acme.api-key-sha256"));
    }
}
