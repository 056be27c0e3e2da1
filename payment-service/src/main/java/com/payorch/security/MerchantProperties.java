package com.payorch.security;

import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * `payments.merchants.<merchantId>.api-key=<key>`: one API key per merchant; optionally
 * `payments.merchants.<merchantId>.webhook-url` (http or https) and `.webhook-secret` (`whsec_<base64>`), where
 * every event of the merchant is delivered (see `merchantwebhooks`). No defaults: a merchant without a webhook-url
 * gets no deliveries.
 */
@ConfigurationProperties("payments")
public class MerchantProperties {

    private Map<String, Merchant> merchants = new LinkedHashMap<>();

    public Map<String, Merchant> getMerchants() {
        return merchants;
    }

    public void setMerchants(Map<String, Merchant> merchants) {
        this.merchants = merchants;
    }

    public static class Merchant {
        private String apiKey;
        private String webhookUrl;
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
    }
}
