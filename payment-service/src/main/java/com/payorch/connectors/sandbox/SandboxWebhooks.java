package com.payorch.connectors.sandbox;

import com.payorch.gateway.ConnectorNotification;
import com.payorch.gateway.ConnectorWebhooks;
import com.payorch.gateway.DisputeNotice;
import com.payorch.gateway.GatewayStatus;
import com.payorch.signing.WebhookHeaders;
import com.payorch.signing.WebhookSignatureVerifier;
import com.payorch.support.Text;
import com.payorch.webhooks.WebhookInvalid;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The sandbox's webhooks: Standard Webhooks signatures with the sandbox secret; body
 * `{"type": "payment.processing|succeeded|failed|authorized|captured|capture_failed|cancelled", "data": {"paymentId",
 * "chargeId", "amount", "currency", "failureReason"}}` (`amount` is the charge's authorised amount; a capture's
 * `amountCaptured` is informative) or `{"type": "refund.succeeded|failed", "data": {"refundId", "paymentId", "chargeId", "amount",
 * "currency", "failureReason"}}` or `{"type": "dispute.opened|updated|won|lost", "data": {"chargeId", "disputeId",
 * "amount", "currency", "paymentId", "reason", "evidenceDueBy", "occurredAt"}}` (the last four optional; a dispute is
 * a report about the charge, never its outcome), deduplicated by `webhook-id`. Members the contract does not name are tolerated, as
 * gateways add fields.
 *
 * <p>The sandbox knows its charges: a payment notification is bound to the attempt of the charge `data.chargeId`
 * names, as the sandbox recorded it ({@link #notifications}). A charge the sandbox never made, or made for another
 * payment than `data.paymentId`, names attempt {@link ConnectorWebhooks#CHARGE_NEVER_MADE}: the notification changes
 * nothing (200 `ignored`, recorded and counted), however well it is signed (the development secret is published).
 */
@Component
public class SandboxWebhooks implements ConnectorWebhooks {

    private static final Map<String, GatewayStatus> TYPES = Map.of(
            "payment.processing", GatewayStatus.PROCESSING,
            "payment.succeeded", GatewayStatus.SUCCEEDED,
            "payment.failed", GatewayStatus.FAILED,
            "payment.authorized", GatewayStatus.AUTHORIZED,
            "payment.captured", GatewayStatus.SUCCEEDED,
            "payment.capture_failed", GatewayStatus.CAPTURE_FAILED,
            "payment.cancelled", GatewayStatus.CANCELLED,
            "refund.succeeded", GatewayStatus.SUCCEEDED,
            "refund.failed", GatewayStatus.FAILED);
    private static final Map<String, DisputeNotice.Kind> DISPUTE_TYPES = Map.of(
            "dispute.opened", DisputeNotice.Kind.OPENED,
            "dispute.updated", DisputeNotice.Kind.UPDATED,
            "dispute.won", DisputeNotice.Kind.WON,
            "dispute.lost", DisputeNotice.Kind.LOST);
    private static final int MAX_TEXT = 255;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final WebhookSignatureVerifier verifier;
    private final SandboxGateway charges;

    public SandboxWebhooks(SandboxGatewayProperties properties, Clock clock, SandboxGateway charges) {
        this.verifier = new WebhookSignatureVerifier(properties.webhookSecret(), clock);
        this.charges = charges;
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
    public Mono<List<ConnectorNotification>> notifications(HttpHeaders headers, byte[] rawBody) {
        return Mono.fromCallable(() -> parse(headers, rawBody))
                .flatMapMany(Flux::fromIterable)
                .concatMap(notification -> notification.refundId() != null ? Mono.just(notification)
                        : charges.chargeById(notification.reference())
                                .map(Optional::of)
                                .defaultIfEmpty(Optional.empty())
                                .map(charge -> boundToItsCharge(notification, charge)))
                .collectList();
    }

    /** The notification naming the attempt of the charge the sandbox holds under its reference (if that is it). */
    static ConnectorNotification boundToItsCharge(ConnectorNotification notification, Optional<SandboxCharge> charge) {
        // Only a dispute may leave its payment out: the sandbox knows whose charge it is.
        String paymentId = notification.paymentId() != null ? notification.paymentId()
                : charge.map(SandboxCharge::paymentId).orElse(null);
        int attempt = charge.filter(held -> held.paymentId().equals(paymentId))
                .map(SandboxCharge::attempt)
                .orElse(CHARGE_NEVER_MADE);
        return new ConnectorNotification(notification.receiptId(), notification.type(), paymentId,
                attempt, notification.reference(), notification.status(), notification.amount(),
                notification.currency(), notification.failureReason(), notification.refundId(),
                notification.dispute());
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
        if (status == null && !DISPUTE_TYPES.containsKey(type)) {
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
        if (status == null) {
            return List.of(dispute(headers, type, data, amount.longValue()));
        }
        return List.of(new ConnectorNotification(headers.getFirst(WebhookHeaders.ID), type,
                text(data, "paymentId", true), text(data, "chargeId", true), status, amount.longValue(),
                text(data, "currency", true), text(data, "failureReason", false),
                type.startsWith("refund.") ? text(data, "refundId", true) : null));
    }

    private static ConnectorNotification dispute(HttpHeaders headers, String type, JsonNode data, long amount) {
        if (amount <= 0) {
            throw new WebhookInvalid("Member 'data.amount' of a dispute must be positive.");
        }
        String disputeId = text(data, "disputeId", true);
        Instant occurredAt = instant(data, "occurredAt");
        if (occurredAt == null) {
            occurredAt = sentAt(headers);
        }
        DisputeNotice notice = new DisputeNotice(disputeId, DISPUTE_TYPES.get(type), amount,
                text(data, "currency", true), text(data, "reason", false), instant(data, "evidenceDueBy"),
                occurredAt);
        return ConnectorNotification.aboutDispute(headers.getFirst(WebhookHeaders.ID), type,
                text(data, "paymentId", false), null, text(data, "chargeId", true), notice);
    }

    private static Instant instant(JsonNode node, String field) {
        String value = text(node, field, false);
        if (value == null) {
            return null;
        }
        try {
            return Instant.parse(value);
        } catch (DateTimeParseException e) {
            throw new WebhookInvalid("Member '" + field + "' must be an RFC 3339 timestamp.");
        }
    }

    /** The signed `webhook-timestamp` (verified before parsing), when the body names no time. */
    private static Instant sentAt(HttpHeaders headers) {
        try {
            return Instant.ofEpochSecond(Long.parseLong(headers.getFirst(WebhookHeaders.TIMESTAMP)));
        } catch (NumberFormatException | NullPointerException e) {
            throw new WebhookInvalid("Member 'occurredAt' is required when the webhook has no timestamp.");
        }
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
