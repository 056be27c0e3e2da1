package com.payorch.webhooks;

import tools.jackson.databind.JsonNode;
import com.payorch.support.Text;
import com.payorch.web.ApiProblem;
import com.payorch.web.ProblemCode;
import java.util.Set;

/**
 * A gateway webhook's body, checked after its signature: `{"type": …, "data": {"paymentId", "amount",
 * "currency", "failureReason"}}`. Members the contract does not name are tolerated, as gateways add fields.
 */
public record GatewayWebhook(String type, String paymentId, long amount, String currency, String failureReason) {

    public static final String PROCESSING = "payment.processing";
    public static final String SUCCEEDED = "payment.succeeded";
    public static final String FAILED = "payment.failed";
    private static final Set<String> TYPES = Set.of(PROCESSING, SUCCEEDED, FAILED);
    private static final int MAX_TEXT = 255;

    public static GatewayWebhook from(JsonNode body) {
        if (!body.isObject()) {
            throw invalid("The webhook body must be a JSON object.");
        }
        String type = text(body, "type", true);
        if (!TYPES.contains(type)) {
            throw invalid("Unknown webhook type '" + Text.printable(type) + "'.");
        }
        JsonNode data = body.get("data");
        if (data == null || !data.isObject()) {
            throw invalid("Member 'data' must be an object.");
        }
        JsonNode amount = data.get("amount");
        if (amount == null || !amount.isIntegralNumber() || !amount.canConvertToLong()) {
            throw invalid("Member 'data.amount' must be an integer.");
        }
        return new GatewayWebhook(type, text(data, "paymentId", true), amount.longValue(),
                text(data, "currency", true), text(data, "failureReason", false));
    }

    private static String text(JsonNode node, String field, boolean required) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            if (required) {
                throw invalid("Member '" + field + "' is required.");
            }
            return null;
        }
        if (!value.isTextual() || value.textValue().isEmpty() || value.textValue().length() > MAX_TEXT) {
            throw invalid("Member '" + field + "' must be a string of 1-" + MAX_TEXT + " characters.");
        }
        if (!Text.isClean(value.textValue(), false)) {
            throw invalid("Member '" + field + "' must not contain control characters (such as U+0000).");
        }
        return value.textValue();
    }

    private static ApiProblem invalid(String detail) {
        return new ApiProblem(ProblemCode.WEBHOOK_INVALID, detail);
    }
}
