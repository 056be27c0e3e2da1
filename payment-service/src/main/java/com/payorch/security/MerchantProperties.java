package com.payorch.security;

import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** `payments.merchants.<merchantId>.api-key=<key>`: one API key per merchant. */
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

        /** The merchant's API key, sent as {@code Authorization: Bearer <key>}. */
        private String apiKey;

        public String getApiKey() {
            return apiKey;
        }

        public void setApiKey(String apiKey) {
            this.apiKey = apiKey;
        }
    }
}
