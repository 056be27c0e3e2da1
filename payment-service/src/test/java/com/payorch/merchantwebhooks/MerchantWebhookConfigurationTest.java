package com.payorch.merchantwebhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.payorch.security.MerchantProperties;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** The merchant webhook settings: defaults, the backoff, and configurations refused at start-up. */
class MerchantWebhookConfigurationTest {

    private static final String SECRET = "whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD";

    @Test
    void defaultsAreTheContractsAndTheBackoffDoublesUpToAnHour() {
        MerchantWebhookProperties defaults = bind(Map.of());
        assertThat(defaults.giveUpAfter()).isEqualTo(Duration.ofDays(3));
        assertThat(defaults.timeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(defaults.backoffAfter(1)).isEqualTo(Duration.ofSeconds(5));
        assertThat(defaults.backoffAfter(2)).isEqualTo(Duration.ofSeconds(10));
        assertThat(defaults.backoffAfter(3)).isEqualTo(Duration.ofSeconds(20));
        assertThat(defaults.backoffAfter(10)).isEqualTo(Duration.ofSeconds(2560));
        assertThat(defaults.backoffAfter(11)).isEqualTo(Duration.ofHours(1));
        assertThat(defaults.backoffAfter(1000)).isEqualTo(Duration.ofHours(1));
    }

    @Test
    void aLeaseNotLongerThanTheTimeOutIsRefused() {
        assertThatThrownBy(() -> bind(Map.of("payments.merchant-webhooks.lease", "PT10S")))
                .isInstanceOf(BindException.class)
                .rootCause().hasMessageContaining("payments.merchant-webhooks.lease");
    }

    @Test
    void targetsAreCheckedAtStartUpWithoutShowingTheSecret() {
        assertThat(targets(Map.of("m", merchant("https://shop.example.com/hooks", SECRET))).of("m")).isPresent();
        assertThat(targets(Map.of("m", merchant(null, null))).of("m")).isEmpty();
        assertThatThrownBy(() -> targets(Map.of("m", merchant("ftp://shop.example.com/hooks", SECRET))))
                .hasMessageContaining("payments.merchants.m.webhook-url");
        assertThatThrownBy(() -> targets(Map.of("m", merchant("not a url", SECRET))))
                .hasMessageContaining("payments.merchants.m.webhook-url");
        assertThatThrownBy(() -> targets(Map.of("m", merchant("https://shop.example.com/hooks", null))))
                .hasMessageContaining("payments.merchants.m.webhook-secret");
        assertThatThrownBy(() -> targets(Map.of("m", merchant("https://shop.example.com/hooks", "sk_live_secret"))))
                .hasMessageContaining("payments.merchants.m.webhook-secret")
                .hasMessageNotContaining("sk_live_secret");
    }

    private static MerchantWebhookProperties bind(Map<String, String> values) {
        return new Binder(new MapConfigurationPropertySource(values))
                .bindOrCreate("payments.merchant-webhooks", MerchantWebhookProperties.class);
    }

    private static MerchantWebhookTargets targets(Map<String, MerchantProperties.Merchant> merchants) {
        MerchantProperties properties = new MerchantProperties();
        properties.setMerchants(merchants);
        return new MerchantWebhookTargets(properties);
    }

    private static MerchantProperties.Merchant merchant(String url, String secret) {
        MerchantProperties.Merchant merchant = new MerchantProperties.Merchant();
        merchant.setWebhookUrl(url);
        merchant.setWebhookSecret(secret);
        return merchant;
    }
}
