package com.payorch.connectors;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Each merchant's route: `payments.merchants.<id>.routing` (default `sandbox`) and
 * `payments.merchants.<id>.routing-by-currency.<CUR>`. A merchant's connector accounts are bound by each
 * connector's own folder from the same tree, its API key by {@code security.MerchantProperties}.
 */
@ConfigurationProperties("payments")
public class RoutingProperties {

    public static final String SANDBOX = "sandbox";

    private Map<String, Merchant> merchants = new LinkedHashMap<>();

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
        return "RoutingProperties[merchants=" + merchants.keySet() + "]";
    }

    /** One merchant's route. */
    public static class Merchant {
        private List<String> routing = new ArrayList<>(List.of(SANDBOX));
        private Map<String, List<String>> routingByCurrency = new LinkedHashMap<>();

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
}
