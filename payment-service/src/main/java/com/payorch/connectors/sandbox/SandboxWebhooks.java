package com.payorch.connectors.sandbox;

import com.payorch.gateway.ConnectorNotification;
import com.payorch.gateway.ConnectorWebhooks;
import com.payorch.gateway.GatewayStatus;
import com.payorch.signing.WebhookHeaders;
import com.payorch.signing.WebhookSignatureVerifier;
import com.payorch.support.Text;
import com.payorch.webhooks.WebhookInvalid;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The sandbox's webhooks: Standard Webhooks signatures with the sandbox secret; body
 * `{"type": "payment.processing|succeeded|failed", "data": {"paymentId", "chargeId", "amount", "currency",
 * "failureReason"}}` or `{"type": "refund.succeeded|failed", "data": {"refundId", "paymentId", "chargeId", "amount",
 * "currency", "failureReason"}}`, deduplicated by `webhook-id`, matched to an attempt by `data.chargeId`. Members the contract
 * does not name are tolerated, as gateways add fields.
 */
@Component
public class SandboxWebhooks implements ConnectorWebhooks {

    private static final Map<String, GatewayStatus> TYPES = Map.of(
            "payment.processing", GatewayStatus.PROCESSING,
            "payment.succeeded", GatewayStatus.SUCCEEDED,
            "payment.failed", GatewayStatus.FAILED,
            "refund.succeeded", GatewayStatus.SUCCEEDED,
            "refund.failed", GatewayStatus.FAILED);
    private static final int MAX_TEXT = 255;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final WebhookSignatureVerifier verifier;

    public SandboxWebhooks(SandboxGatewayProperties properties, Clock clock) {
        this.verifier = new WebhookSignatureVerifier(properties.webhookSecret(), clock);
    }

    @Override
    public String connector() {
        return SandboxGateway.NAME;
    }

    @Override
    public boolean verify(HttpHeaders headers, byte[] rawBody) {
        return verifier.isValid(headers, rawBody);
    }

    @Override
    public List<ConnectorNotification> parse(HttpHeaders headers, byte[] rawBody) {
        JsonNode body;
        try {
            body = JSON.readTree(rawBody);
        } catch (JacksonException e) {
            throw new WebhookInvalid("The webhook body is not valid JSON.");
        }
        if (body == null || !body.isObject()) {
            throw new WebhookInvalid("The webhook body must be a JSON object.");
        }
        String type = text(body, "type", true);
        GatewayStatus status = TYPES.get(type);
        if (status == null) {
            throw new WebhookInvalid("Unknown webhook type '" + Text.printable(type) + "'.");
        }
        JsonNode data = body.get("data");
        if (data == null || !data.isObject()) {
            throw new WebhookInvalid("Member 'data' must be an object.");
        }
        JsonNode amount = data.get("amount");
        if (amount == null || !amount.isIntegralNumber() || !amount.canConvertToLong()) {
            throw new WebhookInvalid("Member 'data.amount' must be an integer.");
        }
        return List.of(new ConnectorNotification(headers.getFirst(WebhookHeaders.ID), type,
                text(data, "paymentId", true), text(data, "chargeId", true), status, amount.longValue(),
                text(data, "currency", true), text(data, "failureReason", false),
                type.startsWith("refund.") ? text(data, "refundId", true) : null));
    }

    private static String text(JsonNode node, String field, boolean required) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            if (required) {
                throw new WebhookInvalid("Member '" + field + "' is required.");
            }
            return null;
        }
        if (!value.isTextual() || value.textValue().isEmpty() || value.textValue().length() > MAX_TEXT) {
            throw new WebhookInvalid("Member '" + field + "' must be a string of 1-" + MAX_TEXT + " characters.");
        }
        if (!Text.isClean(value.textValue(), false)) {
            throw new WebhookInvalid("Member '" + field + "' must not contain control characters (such as U+0000).");
        }
        return value.textValue();
    }
}
