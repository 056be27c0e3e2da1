package com.payorch.connectors.sandbox;

import com.payorch.gateway.Connector;
import com.payorch.gateway.ConnectorCapability;
import com.payorch.gateway.ConnectorWebhooks;
import com.payorch.gateway.PaymentGateway;
import com.payorch.gateway.SignatureFailure;
import com.payorch.gateway.WebhookAcknowledgement;
import com.payorch.gateway.WebhookEndpointDescription;
import com.payorch.webhooks.WebhookEndpointUnknown;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/**
 * The built-in sandbox as a plug-in: its gateway (charges in its own tables, no threads of its own: it is reactive)
 * and its one webhook endpoint for every merchant, `/v1/webhooks/sandbox` (no merchant in the path: the sandbox
 * is one gateway whose charges name their payments).
 */
@Component
class SandboxConnector implements Connector {

    private final SandboxGateway gateway;
    private final SandboxWebhooks webhooks;

    SandboxConnector(SandboxGateway gateway, SandboxWebhooks webhooks) {
        this.gateway = gateway;
        this.webhooks = webhooks;
    }

    @Override
    public String name() {
        return SandboxGateway.NAME;
    }

    @Override
    public PaymentGateway gateway() {
        return gateway;
    }

    @Override
    public ConnectorWebhooks webhooksFor(@Nullable String merchantId) {
        if (merchantId != null) {
            throw new WebhookEndpointUnknown();
        }
        return webhooks;
    }

    @Override
    public boolean webhooksPerMerchant() {
        return false;
    }

    @Override
    public WebhookEndpointDescription webhookEndpoint() {
        return new WebhookEndpointDescription("receiveSandboxWebhook", "A signed webhook from the sandbox gateway",
                "Authenticated by its Standard Webhooks signature, not by an API key. Each `webhook-id` is applied at"
                        + " most once.",
                List.of("webhook-id", "webhook-timestamp", "webhook-signature"), "SandboxWebhook",
                "The sandbox's webhook", SignatureFailure.UNAUTHORIZED);
    }

    @Override
    public WebhookAcknowledgement acknowledgement() {
        return WebhookAcknowledgement.STATUS_JSON;
    }

    @Override
    public Set<ConnectorCapability> capabilities() {
        return Set.of(ConnectorCapability.REFUNDS, ConnectorCapability.LOOKUP);
    }
}
