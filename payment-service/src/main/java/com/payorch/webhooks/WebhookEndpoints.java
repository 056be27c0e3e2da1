package com.payorch.webhooks;

import com.payorch.gateway.Connector;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/**
 * The webhook endpoints of every plugged-in connector: `/v1/webhooks/{connector}/{merchantId}` (and
 * `/v1/webhooks/{connector}` where the connector takes webhooks for no particular merchant, as the sandbox does).
 */
@Component
public class WebhookEndpoints {

    private final Map<String, Connector> connectors;

    public WebhookEndpoints(List<Connector> connectors) {
        this.connectors = connectors.stream().collect(Collectors.toUnmodifiableMap(Connector::name,
                Function.identity()));
    }

    /**
     * The connector whose endpoint this is, or {@link WebhookEndpointUnknown} (404, nothing recorded) for a name no
     * connector has, or a path of the wrong shape (a merchant where the connector takes none, or none where it
     * takes one per merchant).
     */
    public Connector connector(String name, @Nullable String merchantId) {
        Connector connector = connectors.get(name);
        if (connector == null || connector.webhooksPerMerchant() != (merchantId != null)) {
            throw new WebhookEndpointUnknown();
        }
        return connector;
    }
}
