package com.payorch.connectors.braintree;

import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Each merchant's Braintree account, `payments.merchants.<id>.connectors.braintree.merchant-id|public-key|private-key`
 * (the rest of a merchant's settings is bound elsewhere from the same tree). No getter's value is ever logged;
 * {@link #toString()} names no secret.
 */
@ConfigurationProperties("payments")
public class BraintreeAccounts {

    private Map<String, Merchant> merchants = new LinkedHashMap<>();

    public Map<String, Merchant> getMerchants() {
        return merchants;
    }

    public void setMerchants(Map<String, Merchant> merchants) {
        this.merchants = merchants;
    }

    /** The merchant's complete Braintree account, or null when it has none (or a part is missing). */
    public @Nullable Account of(@Nullable String merchantId) {
        Merchant merchant = merchantId != null ? merchants.get(merchantId) : null;
        Account account = merchant != null ? merchant.getConnectors().getBraintree() : null;
        return account != null && account.complete() ? account : null;
    }

    @Override
    public String toString() {
        return "BraintreeAccounts[merchants=" + merchants.keySet() + "]";
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
        private @Nullable Account braintree;

        public @Nullable Account getBraintree() {
            return braintree;
        }

        public void setBraintree(@Nullable Account braintree) {
            this.braintree = braintree;
        }
    }

    /** A merchant's Braintree API keys: its Braintree merchant id, public key and private key. */
    public static class Account {
        private @Nullable String merchantId;
        private @Nullable String publicKey;
        private @Nullable String privateKey;

        public @Nullable String getMerchantId() {
            return merchantId;
        }

        public void setMerchantId(@Nullable String merchantId) {
            this.merchantId = merchantId;
        }

        public @Nullable String getPublicKey() {
            return publicKey;
        }

        public void setPublicKey(@Nullable String publicKey) {
            this.publicKey = publicKey;
        }

        public @Nullable String getPrivateKey() {
            return privateKey;
        }

        public void setPrivateKey(@Nullable String privateKey) {
            this.privateKey = privateKey;
        }

        boolean complete() {
            return present(merchantId) && present(publicKey) && present(privateKey);
        }

        private static boolean present(@Nullable String value) {
            return value != null && !value.isBlank();
        }

        @Override
        public String toString() {
            return "BraintreeAccount[merchantId=" + merchantId + ", keys hidden]";
        }
    }
}
