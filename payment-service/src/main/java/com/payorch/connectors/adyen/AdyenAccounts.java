package com.payorch.connectors.adyen;

import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Each merchant's own Adyen account, `payments.merchants.<id>.connectors.adyen.api-key|merchant-account|hmac-key`
 * (the rest of a merchant's settings is bound by the modules that own them). No getter's value is ever logged;
 * {@link #toString()} names no secret.
 */
@ConfigurationProperties("payments")
public class AdyenAccounts {

    private Map<String, Merchant> merchants = new LinkedHashMap<>();

    public Map<String, Merchant> getMerchants() {
        return merchants;
    }

    public void setMerchants(Map<String, Merchant> merchants) {
        this.merchants = merchants;
    }

    /** The merchant's Adyen account, or null when it has none configured. */
    public @Nullable Account account(@Nullable String merchantId) {
        Merchant merchant = merchantId != null ? merchants.get(merchantId) : null;
        return merchant != null ? merchant.getConnectors().getAdyen() : null;
    }

    @Override
    public String toString() {
        return "AdyenAccounts[merchants=" + merchants.keySet() + "]";
    }

    public static class Merchant {
        private Connectors connectors = new Connectors();

        public Connectors getConnectors() {
            return connectors;
        }

        public void setConnectors(Connectors connectors) {
            this.connectors = connectors;
        }
    }

    public static class Connectors {
        private @Nullable Account adyen;

        public @Nullable Account getAdyen() {
            return adyen;
        }

        public void setAdyen(@Nullable Account adyen) {
            this.adyen = adyen;
        }
    }

    /** A merchant's Adyen account: API key, merchant account name and the notification HMAC key (hex). */
    public static class Account {
        private @Nullable String apiKey;
        private @Nullable String merchantAccount;
        private @Nullable String hmacKey;

        public @Nullable String getApiKey() {
            return apiKey;
        }

        public void setApiKey(@Nullable String apiKey) {
            this.apiKey = apiKey;
        }

        public @Nullable String getMerchantAccount() {
            return merchantAccount;
        }

        public void setMerchantAccount(@Nullable String merchantAccount) {
            this.merchantAccount = merchantAccount;
        }

        public @Nullable String getHmacKey() {
            return hmacKey;
        }

        public void setHmacKey(@Nullable String hmacKey) {
            this.hmacKey = hmacKey;
        }

        @Override
        public String toString() {
            return "AdyenAccount[merchantAccount=" + merchantAccount + ", secrets hidden]";
        }
    }
}
