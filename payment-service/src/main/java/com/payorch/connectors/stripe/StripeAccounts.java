package com.payorch.connectors.stripe;

import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Each merchant's own Stripe account, `payments.merchants.<id>.connectors.stripe.secret-key|webhook-secret` (the
 * rest of a merchant's settings is bound by the modules that own them). No getter's value is ever logged;
 * {@link #toString()} names no secret.
 */
@ConfigurationProperties("payments")
public class StripeAccounts {

    private Map<String, Merchant> merchants = new LinkedHashMap<>();

    public Map<String, Merchant> getMerchants() {
        return merchants;
    }

    public void setMerchants(Map<String, Merchant> merchants) {
        this.merchants = merchants;
    }

    /** The merchant's Stripe account, or null when it has none configured. */
    public @Nullable Account account(@Nullable String merchantId) {
        Merchant merchant = merchantId != null ? merchants.get(merchantId) : null;
        return merchant != null ? merchant.getConnectors().getStripe() : null;
    }

    @Override
    public String toString() {
        return "StripeAccounts[merchants=" + merchants.keySet() + "]";
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
        private @Nullable Account stripe;

        public @Nullable Account getStripe() {
            return stripe;
        }

        public void setStripe(@Nullable Account stripe) {
            this.stripe = stripe;
        }
    }

    /** A merchant's Stripe account: the secret API key (`sk_…`) and the webhook endpoint's signing secret (`whsec_…`). */
    public static class Account {
        private @Nullable String secretKey;
        private @Nullable String webhookSecret;

        public @Nullable String getSecretKey() {
            return secretKey;
        }

        public void setSecretKey(@Nullable String secretKey) {
            this.secretKey = secretKey;
        }

        public @Nullable String getWebhookSecret() {
            return webhookSecret;
        }

        public void setWebhookSecret(@Nullable String webhookSecret) {
            this.webhookSecret = webhookSecret;
        }

        @Override
        public String toString() {
            return "StripeAccount[secrets hidden]";
        }
    }
}
