package com.payorch.connectors;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The connectors' settings (docs/connectors.md). Global: where each connector's API is
 * (`payments.connectors.stripe.api-base`, `payments.connectors.adyen.checkout-url`), so tests and a chaos harness
 * can point them at a fake. Per merchant (each merchant has its own PSP account):
 * `payments.merchants.<id>.connectors.stripe.secret-key|webhook-secret`,
 * `payments.merchants.<id>.connectors.adyen.api-key|merchant-account|hmac-key`,
 * `payments.merchants.<id>.routing` and `payments.merchants.<id>.routing-by-currency.<CUR>`.
 * The API key of a merchant is bound by {@code security.MerchantProperties} from the same tree.
 * No getter's value is ever logged; {@link #toString()} names no secret.
 */
@ConfigurationProperties("payments")
public class ConnectorProperties {

    public static final String SANDBOX = "sandbox";
    public static final String STRIPE = "stripe";
    public static final String ADYEN = "adyen";

    private Connectors connectors = new Connectors();
    private Map<String, Merchant> merchants = new LinkedHashMap<>();

    public Connectors getConnectors() {
        return connectors;
    }

    public void setConnectors(Connectors connectors) {
        this.connectors = connectors;
    }

    public Map<String, Merchant> getMerchants() {
        return merchants;
    }

    public void setMerchants(Map<String, Merchant> merchants) {
        this.merchants = merchants;
    }

    public @Nullable Merchant merchant(String merchantId) {
        return merchants.get(merchantId);
    }

    @Override
    public String toString() {
        return "ConnectorProperties[merchants=" + merchants.keySet() + "]";
    }

    public static class Connectors {
        private Stripe stripe = new Stripe();
        private Adyen adyen = new Adyen();

        public Stripe getStripe() {
            return stripe;
        }

        public void setStripe(Stripe stripe) {
            this.stripe = stripe;
        }

        public Adyen getAdyen() {
            return adyen;
        }

        public void setAdyen(Adyen adyen) {
            this.adyen = adyen;
        }
    }

    /** Global Stripe settings. */
    public static class Stripe {
        /** Stripe's API address (for every merchant); point it at a test server to run without Stripe. */
        private URI apiBase = URI.create("https://api.stripe.com");
        /** How long connecting to the PSP may take; a refused or timed-out connect is "not sent". */
        private Duration connectTimeout = Duration.ofSeconds(5);
        /** How long the PSP may take to answer; no answer by then is an ambiguous failure. */
        private Duration readTimeout = Duration.ofSeconds(8);
        /** Threads for the blocking PSP SDK calls (bounded, never an event-loop thread). */
        private int threads = 32;

        public URI getApiBase() {
            return apiBase;
        }

        public void setApiBase(URI apiBase) {
            this.apiBase = apiBase;
        }

        public Duration getConnectTimeout() {
            return connectTimeout;
        }

        public void setConnectTimeout(Duration connectTimeout) {
            this.connectTimeout = connectTimeout;
        }

        public Duration getReadTimeout() {
            return readTimeout;
        }

        public void setReadTimeout(Duration readTimeout) {
            this.readTimeout = readTimeout;
        }

        public int getThreads() {
            return threads;
        }

        public void setThreads(int threads) {
            this.threads = threads;
        }
    }

    /** Global Adyen settings. */
    public static class Adyen {
        /** Adyen Checkout's address, the API version included (for every merchant). */
        private URI checkoutUrl = URI.create("https://checkout-test.adyen.com/v71");
        /** How long connecting to the PSP may take; a refused or timed-out connect is "not sent". */
        private Duration connectTimeout = Duration.ofSeconds(5);
        /** How long the PSP may take to answer; no answer by then is an ambiguous failure. */
        private Duration readTimeout = Duration.ofSeconds(8);

        public Duration getConnectTimeout() {
            return connectTimeout;
        }

        public void setConnectTimeout(Duration connectTimeout) {
            this.connectTimeout = connectTimeout;
        }

        public Duration getReadTimeout() {
            return readTimeout;
        }

        public void setReadTimeout(Duration readTimeout) {
            this.readTimeout = readTimeout;
        }

        public URI getCheckoutUrl() {
            return checkoutUrl;
        }

        public void setCheckoutUrl(URI checkoutUrl) {
            this.checkoutUrl = checkoutUrl;
        }
    }

    /** One merchant's connector accounts and route. */
    public static class Merchant {
        private MerchantConnectors connectors = new MerchantConnectors();
        private List<String> routing = new ArrayList<>(List.of(SANDBOX));
        private Map<String, List<String>> routingByCurrency = new LinkedHashMap<>();

        public MerchantConnectors getConnectors() {
            return connectors;
        }

        public void setConnectors(MerchantConnectors connectors) {
            this.connectors = connectors;
        }

        public List<String> getRouting() {
            return routing;
        }

        public void setRouting(List<String> routing) {
            this.routing = routing;
        }

        public Map<String, List<String>> getRoutingByCurrency() {
            return routingByCurrency;
        }

        public void setRoutingByCurrency(Map<String, List<String>> routingByCurrency) {
            this.routingByCurrency = routingByCurrency;
        }

        /** The route for payments in {@code currency} (upper case ISO 4217), as configured (normalised to lower case). */
        public List<String> route(String currency) {
            List<String> byCurrency = routingByCurrency.get(currency.toUpperCase(Locale.ROOT));
            if (byCurrency == null) {
                byCurrency = routingByCurrency.get(currency.toLowerCase(Locale.ROOT));
            }
            List<String> chosen = byCurrency != null && !byCurrency.isEmpty() ? byCurrency : routing;
            if (chosen == null || chosen.isEmpty()) {
                return List.of(SANDBOX);
            }
            return chosen.stream().map(name -> name.trim().toLowerCase(Locale.ROOT)).filter(n -> !n.isEmpty()).toList();
        }

        @Override
        public String toString() {
            return "Merchant[routing=" + routing + "]";
        }
    }

    public static class MerchantConnectors {
        private @Nullable StripeAccount stripe;
        private @Nullable AdyenAccount adyen;

        public @Nullable StripeAccount getStripe() {
            return stripe;
        }

        public void setStripe(@Nullable StripeAccount stripe) {
            this.stripe = stripe;
        }

        public @Nullable AdyenAccount getAdyen() {
            return adyen;
        }

        public void setAdyen(@Nullable AdyenAccount adyen) {
            this.adyen = adyen;
        }
    }

    /** A merchant's Stripe account: the secret API key (`sk_…`) and the webhook endpoint's signing secret (`whsec_…`). */
    public static class StripeAccount {
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

    /** A merchant's Adyen account: API key, merchant account name and the notification HMAC key (hex). */
    public static class AdyenAccount {
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
