package com.payorch.security;

import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code payments.merchants.<merchantId>.*}: one API key per merchant, any number of merchants, and optionally where
 * the merchant's events are pushed. The shipped {@code application.yml} defines merchant {@code demo} with the
 * development key {@code sk_test_demo}. A merchant without a webhook-url gets no deliveries.
 */
@ConfigurationProperties("payments")
public class MerchantProperties {

    /**
     * The merchants by id, each with its API key ({@code payments.merchants.<id>.api-key}); any number of them. The
     * development merchant {@code demo} with key {@code sk_test_demo} is set in application.yml: replace it in any
     * real deployment.
     */
    private Map<String, Merchant> merchants = new LinkedHashMap<>();

    public Map<String, Merchant> getMerchants() {
        return merchants;
    }

    public void setMerchants(Map<String, Merchant> merchants) {
        this.merchants = merchants;
    }

    public static class Merchant {
        /** {@code api-key}: the merchant's API key itself. Default: unset (the merchant has no key). */
        private String apiKey;
        /**
         * {@code api-key-sha256}: instead of {@code api-key}, the key's SHA-256 digest as 64 hex digits, so the key
         * itself is not in the configuration. Default: unset. Anything but 64 hex digits stops the start-up.
         */
        private String apiKeySha256;

        public String getApiKeySha256() {
            return apiKeySha256;
        }

        public void setApiKeySha256(String apiKeySha256) {
            this.apiKeySha256 = apiKeySha256;
        }

        /** {@code webhook-url}: where every event of the merchant is POSTed (http or https). Default: unset. */
        private String webhookUrl;
        /** {@code webhook-secret}: the {@code whsec_<base64>} secret that signs those deliveries. Default: unset. */
        private String webhookSecret;

        public String getWebhookUrl() {
            return webhookUrl;
        }

        public void setWebhookUrl(String webhookUrl) {
            this.webhookUrl = webhookUrl;
        }

        public String getWebhookSecret() {
            return webhookSecret;
        }

        public void setWebhookSecret(String webhookSecret) {
            this.webhookSecret = webhookSecret;
        }

        public String getApiKey() {
            return apiKey;
        }

        public void setApiKey(String apiKey) {
            this.apiKey = apiKey;
        }

        /** {@code capture.*}: the merchant's own choices for its holds. */
        private Capture capture = new Capture();

        public Capture getCapture() {
            return capture;
        }

        public void setCapture(Capture capture) {
            this.capture = capture;
        }
    }

    public static class Capture {
        /**
         * {@code on-expiry}: {@code cancel} or {@code capture}, instead of {@code payments.capture.on-expiry} for
         * this merchant's holds. Default: unset (the service's policy). Any other value stops the start-up.
         */
        private String onExpiry;

        public String getOnExpiry() {
            return onExpiry;
        }

        public void setOnExpiry(String onExpiry) {
            this.onExpiry = onExpiry;
        }
    }
}
