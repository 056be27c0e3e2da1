package com.payorch.connectors.stripe;

import com.payorch.gateway.ConnectorNotification;
import com.payorch.gateway.DisputeNotice;
import com.payorch.webhooks.WebhookInvalid;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Stripe's `charge.dispute.*` events (a Dispute object, `dp_…`) in the port's words: one
 * {@link ConnectorNotification#aboutDispute} each, the receipt id the event id, the charge named by the dispute's
 * `payment_intent` (the PaymentIntent id is what attempts record; a Dispute carries no PaymentIntent metadata unless
 * Stripe expanded it, so the attempt is usually found by that reference). A dispute of a charge without a
 * PaymentIntent is of no charge this service made: no notification (answered `ignored`, nothing recorded).
 * <p>
 * Kinds: `created` OPENED; `updated`, `funds_withdrawn`, `funds_reinstated` UPDATED (the first report about a dispute
 * opens it whatever its kind, so a `funds_withdrawn` ahead of its `created` opens it; money coming back is decided by
 * `closed`, not by `funds_reinstated`); `closed` by its status: `won` WON, `lost` LOST, `warning_closed` WON (an
 * inquiry closed without a chargeback: nothing was taken), any other (`prevented`, a status Stripe may add) UPDATED.
 */
final class StripeDisputes {

    static final Set<String> TYPES = Set.of("charge.dispute.created", "charge.dispute.updated",
            "charge.dispute.closed", "charge.dispute.funds_withdrawn", "charge.dispute.funds_reinstated");

    private StripeDisputes() {
    }

    static boolean isAboutADispute(String type) {
        return TYPES.contains(type);
    }

    /**
     * @param fallback when the event says nothing of when it happened (Stripe's events carry `created`)
     * @throws WebhookInvalid when `data.object` is not a Dispute with id, status, amount and currency
     */
    static List<ConnectorNotification> notifications(String eventId, String type, JsonNode event, Instant fallback) {
        JsonNode dispute = event.path("data").path("object");
        String id = StripeWebhooks.text(dispute, "id");
        String status = StripeWebhooks.text(dispute, "status");
        String currency = StripeWebhooks.text(dispute, "currency");
        JsonNode amount = dispute.get("amount");
        if (id == null || status == null || currency == null || amount == null || !amount.isIntegralNumber()
                || !amount.canConvertToLong()) {
            throw new WebhookInvalid("Member 'data.object' must be a Dispute with id, status, amount and currency.");
        }
        String isoCurrency = currency.toUpperCase(Locale.ROOT);
        long isoAmount = StripeWebhooks.isoAmount(amount.longValue(), isoCurrency);
        Instant dueBy = epochSeconds(dispute.path("evidence_details").get("due_by"));
        Instant occurredAt = epochSeconds(event.get("created"));

        JsonNode intent = dispute.path("payment_intent");
        String reference = intent.isObject() ? StripeWebhooks.text(intent, "id") : StripeWebhooks.text(dispute,
                "payment_intent");
        if (reference == null) {
            return List.of();
        }
        JsonNode metadata = intent.path("metadata");
        DisputeNotice notice = new DisputeNotice(id, kind(type, status), isoAmount, isoCurrency,
                StripeWebhooks.text(dispute, "reason"), dueBy, occurredAt != null ? occurredAt : fallback);
        return List.of(ConnectorNotification.aboutDispute(eventId, type, StripeWebhooks.text(metadata, "payment_id"),
                StripeWebhooks.attempt(StripeWebhooks.text(metadata, "attempt")), reference, notice));
    }

    static DisputeNotice.Kind kind(String type, String status) {
        return switch (type) {
            case "charge.dispute.created" -> DisputeNotice.Kind.OPENED;
            case "charge.dispute.closed" -> switch (status) {
                case "won", "warning_closed" -> DisputeNotice.Kind.WON;
                case "lost" -> DisputeNotice.Kind.LOST;
                default -> DisputeNotice.Kind.UPDATED;
            };
            default -> DisputeNotice.Kind.UPDATED;
        };
    }

    private static @Nullable Instant epochSeconds(@Nullable JsonNode value) {
        if (value == null || !value.isIntegralNumber() || !value.canConvertToLong() || value.longValue() < 0) {
            return null;
        }
        return Instant.ofEpochSecond(value.longValue());
    }
}
