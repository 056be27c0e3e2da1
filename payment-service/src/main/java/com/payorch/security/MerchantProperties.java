package com.payorch.security;

import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** `payments.merchants.<merchantId>.api-key=<key>`: one API key per merchant. */
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

        public String getApiKey() {
            return apiKey;
        }

        public void setApiKey(String apiKey) {
            this.apiKey = apiKey;
        }
    }
}
