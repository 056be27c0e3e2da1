package com.payorch.merchantwebhooks;

import com.payorch.security.MerchantProperties;
import com.payorch.signing.WebhookSecret;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * Where each merchant's events go: `payments.merchants.<id>.webhook-url` with its `webhook-secret`, checked at
 * start-up (an invalid URL or secret, or a URL without a secret, stops the start naming the key, never the value of
 * a secret).
 */
@Component
public class MerchantWebhookTargets {

    /** A merchant's webhook endpoint and the secret its deliveries are signed with. */
    public record Target(URI url, WebhookSecret secret) {
    }

    private final Map<String, Target> targets = new HashMap<>();

    public MerchantWebhookTargets(MerchantProperties properties) {
        properties.getMerchants().forEach((merchantId, merchant) -> {
            String url = merchant.getWebhookUrl();
            if (url == null || url.isBlank()) {
                return;
            }
            String key = "payments.merchants." + merchantId;
            URI uri;
            try {
                uri = URI.create(url.trim());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(key + ".webhook-url is not a URL");
            }
            if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) {
                throw new IllegalArgumentException(key + ".webhook-url must be an http or https URL");
            }
            if (merchant.getWebhookSecret() == null || merchant.getWebhookSecret().isBlank()) {
                throw new IllegalArgumentException(key + ".webhook-secret is required with " + key + ".webhook-url");
            }
            WebhookSecret secret;
            try {
                secret = WebhookSecret.parse(merchant.getWebhookSecret().trim());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(key + ".webhook-secret: " + e.getMessage());
            }
            targets.put(merchantId, new Target(uri, secret));
        });
    }

    public Optional<Target> of(String merchantId) {
        return Optional.ofNullable(targets.get(merchantId));
    }
}
