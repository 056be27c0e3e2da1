package com.payorch.connectors.stripe;

import com.payorch.gateway.ConnectorNotification;
import com.payorch.gateway.ConnectorWebhooks;
import com.payorch.gateway.GatewayStatus;
import com.payorch.gateway.MappedStatus;
import com.payorch.gateway.SignatureFailure;
import com.payorch.webhooks.WebhookEndpointUnknown;
import com.payorch.webhooks.WebhookInvalid;
import com.stripe.exception.SignatureVerificationException;
import com.stripe.net.Webhook;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Stripe's webhooks, one endpoint per merchant (`POST /v1/webhooks/stripe/{merchantId}`): the `Stripe-Signature`
 * header is checked on the raw body with the merchant's endpoint secret by stripe-java's {@link Webhook.Signature}
 * (300 s tolerance, against the service's clock); a failure is 400 `webhook_signature_rejected`.
 * <p>
 * `payment_intent.processing|succeeded|payment_failed|amount_capturable_updated|canceled` become one
 * {@link ConnectorNotification} each (`amount_capturable_updated`: AUTHORIZED, a hold; `succeeded`: SUCCEEDED, a charge
 * or the capture of a hold; `canceled`: CANCELLED with the `cancellation_reason`, `automatic` read as
 * `authorization_expired`, whatever the capture method: the payment decides what a cancelled attempt means) (receipt id =
 * the event id, reference = the PaymentIntent id, payment = `metadata.payment_id`, attempt = `metadata.attempt`, the
 * amount back in ISO units through {@link StripeCurrencies}); other types are answered `ignored` and not recorded,
 * `payment_intent.requires_action` among them (the confirm's answer or a look-up already told the payment to wait for
 * its customer; a failed 3-D Secure comes as `payment_failed` with `payment_intent_authentication_failure`).
 * A PaymentIntent this service did not create (no `metadata.payment_id`) is still handed on, naming no payment and no
 * attempt, so that the pipeline records it and answers it `ignored` (never 404: Stripe would resend it for days). `refund.updated` / `refund.failed` (a Refund object) and `charge.refunded` (a Charge
 * with its `refunds.data`) become one notification per Refund made by this service (`metadata.refund_id`; receipt id
 * = the event id, plus `/<re_…>` for a Charge's refunds), bound to that refund; `refund.failed`, and `refund.updated`
 * with status `failed`, are FAILED (after SUCCEEDED: a reversal). `charge.dispute.*` become one dispute notification
 * each ({@link StripeDisputes}). Objects are read from the raw JSON, not through the SDK's typed
 * deserializer, which returns nothing when the event's `api_version` differs from the SDK's.
 */
public class StripeWebhooks {

    static final long TOLERANCE_SECONDS = 300;
    private static final Set<String> TYPES = Set.of("payment_intent.processing", "payment_intent.succeeded",
            "payment_intent.payment_failed", "payment_intent.amount_capturable_updated", "payment_intent.canceled");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final StripeAccounts accounts;
    private final Clock clock;

    public StripeWebhooks(StripeAccounts accounts, Clock clock) {
        this.accounts = accounts;
        this.clock = clock;
    }

    /** The adapter for one merchant's Stripe endpoint. */
    public ConnectorWebhooks forMerchant(@Nullable String merchantId) {
        StripeAccounts.Account account = accounts.account(merchantId);
        if (account == null || account.getWebhookSecret() == null || account.getWebhookSecret().isBlank()) {
            throw new WebhookEndpointUnknown();
        }
        return new Adapter(merchantId, account.getWebhookSecret());
    }

    private final class Adapter implements ConnectorWebhooks {

        private final String merchantId;
        private final String secret;

        Adapter(String merchantId, String secret) {
            this.merchantId = merchantId;
            this.secret = secret;
        }

        @Override
        public String merchantId() {
            return merchantId;
        }

        @Override
        public String connector() {
            return StripeGateway.NAME;
        }

        @Override
        public SignatureFailure signatureFailure() {
            return SignatureFailure.BAD_REQUEST;
        }

        @Override
        public boolean verify(HttpHeaders headers, byte[] rawBody) {
            String header = headers.getFirst("Stripe-Signature");
            if (header == null || header.isBlank()) {
                return false;
            }
            try {
                return Webhook.Signature.verifyHeader(new String(rawBody, StandardCharsets.UTF_8), header, secret,
                        TOLERANCE_SECONDS, clock);
            } catch (SignatureVerificationException | RuntimeException e) {
                return false;
            }
        }

        @Override
        public List<ConnectorNotification> parse(HttpHeaders headers, byte[] rawBody) {
            JsonNode event;
            try {
                event = JSON.readTree(rawBody);
            } catch (JacksonException e) {
                throw new WebhookInvalid("The webhook body is not valid JSON.");
            }
            if (event == null || !event.isObject()) {
                throw new WebhookInvalid("The webhook body must be a JSON object.");
            }
            String id = text(event, "id");
            String type = text(event, "type");
            if (id == null || type == null) {
                throw new WebhookInvalid("Members 'id' and 'type' are required.");
            }
            if (type.equals("refund.updated") || type.equals("refund.failed")) {
                ConnectorNotification refund = refundNotification(id, type, event.path("data").path("object"));
                return refund == null ? List.of() : List.of(refund);
            }
            if (type.equals("charge.refunded")) {
                List<ConnectorNotification> refunds = new java.util.ArrayList<>();
                for (JsonNode refund : event.path("data").path("object").path("refunds").path("data")) {
                    ConnectorNotification notification = refundNotification(id + "/" + text(refund, "id"), type,
                            refund);
                    if (notification != null) {
                        refunds.add(notification);
                    }
                }
                return refunds;
            }
            if (StripeDisputes.isAboutADispute(type)) {
                return StripeDisputes.notifications(id, type, event, clock.instant());
            }
            if (!TYPES.contains(type)) {
                return List.of();
            }
            JsonNode intent = event.path("data").path("object");
            String reference = text(intent, "id");
            String status = text(intent, "status");
            String currency = text(intent, "currency");
            JsonNode amount = intent.get("amount");
            if (reference == null || status == null || currency == null || amount == null
                    || !amount.isIntegralNumber() || !amount.canConvertToLong()) {
                throw new WebhookInvalid("Member 'data.object' must be a PaymentIntent with id, status, amount and"
                        + " currency.");
            }
            JsonNode lastError = intent.path("last_payment_error");
            MappedStatus mapped = StripeStatuses.charge(status, text(lastError, "code"),
                    text(lastError, "decline_code"));
            GatewayStatus reported = switch (type) {
                case "payment_intent.succeeded" -> GatewayStatus.SUCCEEDED;
                case "payment_intent.payment_failed" -> GatewayStatus.FAILED;
                case "payment_intent.amount_capturable_updated" -> GatewayStatus.AUTHORIZED;
                case "payment_intent.canceled" -> GatewayStatus.CANCELLED;
                default -> GatewayStatus.PROCESSING;
            };
            String failureReason = switch (reported) {
                case FAILED -> mapped.failureReason() != null ? mapped.failureReason() : "payment_failed";
                case CANCELLED -> StripeStatuses.cancelReason(text(intent, "cancellation_reason"));
                default -> null;
            };
            JsonNode metadata = intent.path("metadata");
            String isoCurrency = currency.toUpperCase(Locale.ROOT);
            return List.of(new ConnectorNotification(id, type, text(metadata, "payment_id"),
                    attempt(text(metadata, "attempt")), reference, reported, isoAmount(amount.longValue(), isoCurrency),
                    isoCurrency, failureReason, null));
        }
    }

    /** A Stripe Refund object made by this service (it has `metadata.refund_id`), or null (not ours: ignored). */
    private static @Nullable ConnectorNotification refundNotification(String receiptId, String type, JsonNode refund) {
        String refundId = text(refund.path("metadata"), "refund_id");
        if (refundId == null) {
            return null;
        }
        String status = text(refund, "status");
        String currency = text(refund, "currency");
        JsonNode amount = refund.get("amount");
        String reference = text(refund, "id");
        if (reference == null || currency == null || amount == null || !amount.isIntegralNumber()
                || !amount.canConvertToLong()) {
            throw new WebhookInvalid("A Refund needs id, amount and currency.");
        }
        MappedStatus mapped = StripeStatuses.refund(type.equals("refund.failed") ? "failed" : status,
                text(refund, "failure_reason"));
        String isoCurrency = currency.toUpperCase(Locale.ROOT);
        return new ConnectorNotification(receiptId, type, text(refund.path("metadata"), "payment_id"), reference,
                mapped.status(), isoAmount(amount.longValue(), isoCurrency), isoCurrency, mapped.failureReason(),
                refundId);
    }

    /** `metadata.attempt` as this service wrote it (a positive number), else null: the event names no attempt. */
    static @Nullable Integer attempt(@Nullable String value) {
        if (value == null || !value.matches("[1-9][0-9]{0,8}")) {
            return null;
        }
        return Integer.valueOf(value);
    }

    /**
     * Stripe's amount back in ISO 4217 minor units (ISK 500 at Stripe is ISK 5). An amount Stripe never sends (below 1
     * or beyond its 8 digits) makes the event malformed, whoever's object it is about.
     */
    static long isoAmount(long stripeAmount, String currency) {
        if (stripeAmount < 1 || Long.toString(stripeAmount).length() > StripeCurrencies.MAX_DIGITS) {
            throw new WebhookInvalid("The amount " + stripeAmount + " is not one Stripe sends (1 to "
                    + StripeCurrencies.MAX_DIGITS + " digits).");
        }
        return StripeCurrencies.UNITS.toIso(stripeAmount, currency).orElseThrow(() -> new WebhookInvalid(
                "The amount " + stripeAmount + " " + currency + " has no exact ISO 4217 form."));
    }

    static @Nullable String text(JsonNode node, String field) {
        JsonNode value = node == null ? null : node.get(field);
        if (value == null || !value.isTextual() || value.textValue().isEmpty() || value.textValue().length() > 255) {
            return null;
        }
        return value.textValue();
    }
}
