package com.payorch.connectors.adyen;

import com.adyen.model.notification.NotificationRequest;
import com.adyen.model.notification.NotificationRequestItem;
import com.adyen.util.HMACValidator;
import com.payorch.gateway.ConnectorNotification;
import com.payorch.gateway.ConnectorWebhooks;
import com.payorch.gateway.GatewayStatus;
import com.payorch.gateway.WebhookSignatureFailures;
import com.payorch.webhooks.WebhookEndpointUnknown;
import com.payorch.webhooks.WebhookInvalid;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;

/**
 * Adyen's notifications, one endpoint per merchant (`POST /v1/webhooks/adyen/{merchantId}`). Adyen signs each
 * `NotificationRequestItem`, not the request: every item is checked with the SDK's {@link HMACValidator} against the
 * merchant's HMAC keys (hex; `hmac-key` may hold two separated by a comma while Adyen's key is rotated: either one
 * verifies) and must name the merchant's account. An item that fails is not applied: it is logged and reported to
 * {@link WebhookSignatureFailures}, and the rest of the batch is still read (the batch is answered `[accepted]`).
 * Event codes (Webhooks-v1.json of `Adyen/adyen-openapi`), deduplicated by pspReference + eventCode + success:
 * <ul>
 *   <li>`AUTHORISATION`: the charge (success=true → SUCCEEDED, false → FAILED with `reason`), bound to the attempt
 *       named by `additionalData.metadata.attempt` (sent as `metadata.attempt` on `/payments`).</li>
 *   <li>`TECHNICAL_CANCEL` (the answer to `POST /cancels` by our reference) and `CANCELLATION` with success=true:
 *       Adyen confirms it holds no authorisation for the payment any more: the attempt FAILED `gateway_unreachable`
 *       ("confirmed: nothing was taken"). success=false (Adyen could not cancel: captured) is logged, nothing else.</li>
 *   <li>`REFUND` and `CANCEL_OR_REFUND` (a reversal of an orphaned charge) whose merchantReference is one of our refund
 *       ids (`re_…`): that refund SUCCEEDED or FAILED; `REFUND_FAILED` and `REFUNDED_REVERSED`: that refund FAILED
 *       (after SUCCEEDED: reversed).</li>
 * </ul>
 * Amounts are converted from Adyen's units back to ISO 4217 minor units ({@link AdyenCurrencies}); other event codes
 * are not recorded.
 */
public class AdyenWebhooks {

    private static final Logger log = LoggerFactory.getLogger(AdyenWebhooks.class);

    /** How Adyen returns the `/payments` metadata in a notification's `additionalData`. */
    static final String PAYMENT_ID = "metadata." + AdyenGateway.METADATA_PAYMENT_ID;
    static final String ATTEMPT = "metadata." + AdyenGateway.METADATA_ATTEMPT;

    /** What Adyen's confirmed cancel means for the attempt: nothing was taken. */
    static final String CONFIRMED_NOTHING_TAKEN = ConnectorNotification.CONFIRMED_NOTHING_TAKEN;

    /**
     * An Adyen amount with no exact ISO form (CLP 5000.50): never a payment's or refund's amount, so the item is
     * recorded as an amount mismatch, not applied and not dropped.
     */
    static final long NO_ISO_AMOUNT = -1;

    private final AdyenAccounts accounts;
    private final WebhookSignatureFailures signatureFailures;

    public AdyenWebhooks(AdyenAccounts accounts, WebhookSignatureFailures signatureFailures) {
        this.accounts = accounts;
        this.signatureFailures = signatureFailures;
    }

    /** The adapter for one merchant's Adyen endpoint. */
    public ConnectorWebhooks forMerchant(@Nullable String merchantId) {
        AdyenAccounts.Account account = accounts.account(merchantId);
        List<String> keys = account == null ? List.of() : hmacKeys(account.getHmacKey());
        if (keys.isEmpty()) {
            throw new WebhookEndpointUnknown();
        }
        return new Adapter(merchantId, account, keys, signatureFailures);
    }

    /** The configured HMAC keys: one, or two during a rotation (comma-separated). */
    static List<String> hmacKeys(@Nullable String configured) {
        if (configured == null) {
            return List.of();
        }
        return Arrays.stream(configured.split(",")).map(String::trim).filter(key -> !key.isEmpty()).toList();
    }

    private static final class Adapter implements ConnectorWebhooks {

        private final String merchantId;
        private final AdyenAccounts.Account account;
        private final List<String> hmacKeys;
        private final WebhookSignatureFailures signatureFailures;

        Adapter(String merchantId, AdyenAccounts.Account account, List<String> hmacKeys,
                WebhookSignatureFailures signatureFailures) {
            this.merchantId = merchantId;
            this.account = account;
            this.hmacKeys = hmacKeys;
            this.signatureFailures = signatureFailures;
        }

        @Override
        public String connector() {
            return AdyenGateway.NAME;
        }

        @Override
        public String merchantId() {
            return merchantId;
        }

        /** The request as a whole carries no signature; each item is checked in {@link #parse}. */
        @Override
        public boolean verify(HttpHeaders headers, byte[] rawBody) {
            return true;
        }

        @Override
        public List<ConnectorNotification> parse(HttpHeaders headers, byte[] rawBody) {
            NotificationRequest request;
            try {
                request = NotificationRequest.fromJson(new String(rawBody, StandardCharsets.UTF_8));
            } catch (Exception e) {
                throw new WebhookInvalid("The notification body is not an Adyen NotificationRequest.");
            }
            if (request == null || request.getNotificationItems() == null) {
                throw new WebhookInvalid("The notification body has no notificationItems.");
            }
            List<ConnectorNotification> notifications = new ArrayList<>();
            for (NotificationRequestItem item : request.getNotificationItems()) {
                if (item == null) {
                    continue;
                }
                String unverified = whyUnverified(item);
                if (unverified != null) {
                    String detail = "Adyen notification item pspReference " + item.getPspReference() + " eventCode "
                            + item.getEventCode() + ": " + unverified + "; not applied";
                    log.warn("merchant {}: {}", merchantId, detail);
                    signatureFailures.record(AdyenGateway.NAME, merchantId, detail);
                    continue;
                }
                ConnectorNotification notification = map(item);
                if (notification != null) {
                    notifications.add(notification);
                }
            }
            return notifications;
        }

        /** Null when the item is signed with one of the merchant's keys and names the merchant's account. */
        private @Nullable String whyUnverified(NotificationRequestItem item) {
            HMACValidator validator = new HMACValidator();
            boolean signed = false;
            for (String key : hmacKeys) {
                try {
                    signed = validator.validateHMAC(item, key);
                } catch (Exception e) {
                    signed = false;
                }
                if (signed) {
                    break;
                }
            }
            if (!signed) {
                return "its HMAC signature matches none of the merchant's " + hmacKeys.size() + " key(s)";
            }
            if (account.getMerchantAccount() == null
                    || !account.getMerchantAccount().equals(item.getMerchantAccountCode())) {
                return "it names merchant account " + item.getMerchantAccountCode() + ", not the merchant's";
            }
            return null;
        }
    }

    /** The item in the port's words, or null when this service does not act on it (logged where that matters). */
    static @Nullable ConnectorNotification map(NotificationRequestItem item) {
        String event = item.getEventCode();
        if (event == null || item.getPspReference() == null || item.getAmount() == null
                || item.getAmount().getValue() == null || item.getAmount().getCurrency() == null) {
            return null;
        }
        boolean success = item.isSuccess();
        String receiptId = "adyen:" + item.getPspReference() + ":" + event + ":" + success;
        String currency = item.getAmount().getCurrency().toUpperCase(Locale.ROOT);
        long amount = isoAmount(item.getAmount().getValue(), currency, item);
        return switch (event) {
            case "AUTHORISATION" -> item.getMerchantReference() == null ? null
                    : new ConnectorNotification(receiptId, event, paymentId(item), attempt(item),
                            item.getPspReference(), success ? GatewayStatus.SUCCEEDED : GatewayStatus.FAILED, amount,
                            currency, success ? null : reason(item, "Refused"), null);
            case "TECHNICAL_CANCEL", "CANCELLATION" -> {
                if (!success) {
                    log.warn("Adyen {} pspReference {} for payment {} was not successful ({}): the authorisation is"
                            + " still held (captured?); nothing applied", event, item.getPspReference(),
                            item.getMerchantReference(), item.getReason());
                    yield null;
                }
                // The payment's own pspReference when Adyen held one (originalReference), else the cancel's.
                String charge = item.getOriginalReference() != null && !item.getOriginalReference().isBlank()
                        ? item.getOriginalReference() : item.getPspReference();
                yield new ConnectorNotification(receiptId, event, paymentId(item), attempt(item), charge,
                        GatewayStatus.FAILED, amount, currency, CONFIRMED_NOTHING_TAKEN, null);
            }
            case "REFUND", "CANCEL_OR_REFUND" -> ourRefund(item) == null ? null
                    : new ConnectorNotification(receiptId, event, null, null, item.getPspReference(),
                            success ? GatewayStatus.SUCCEEDED : GatewayStatus.FAILED, amount, currency,
                            success ? null : reason(item, "refund_failed"), ourRefund(item));
            case "REFUND_FAILED", "REFUNDED_REVERSED" -> {
                if (ourRefund(item) == null) {
                    yield null;
                }
                if (!success) {
                    log.warn("Adyen {} pspReference {} for refund {} has success=false; nothing applied", event,
                            item.getPspReference(), item.getMerchantReference());
                    yield null;
                }
                yield new ConnectorNotification(receiptId, event, null, null, item.getPspReference(),
                        GatewayStatus.FAILED, amount, currency,
                        reason(item, event.equals("REFUND_FAILED") ? "refund_failed" : "refund_reversed"),
                        ourRefund(item));
            }
            default -> null;
        };
    }

    /** Our refund id when the item's merchantReference is one (the `reference` our refund or reversal carried). */
    private static @Nullable String ourRefund(NotificationRequestItem item) {
        String reference = item.getMerchantReference();
        return reference != null && reference.startsWith("re_") ? reference : null;
    }

    private static String paymentId(NotificationRequestItem item) {
        String named = additional(item).get(PAYMENT_ID);
        return named != null && !named.isBlank() ? named : item.getMerchantReference();
    }

    private static @Nullable Integer attempt(NotificationRequestItem item) {
        String named = additional(item).get(ATTEMPT);
        if (named == null) {
            return null;
        }
        try {
            int attempt = Integer.parseInt(named.trim());
            return attempt > 0 ? attempt : null;
        } catch (NumberFormatException e) {
            log.warn("Adyen notification pspReference {} names attempt '{}', not a number: bound by its reference"
                    + " alone", item.getPspReference(), named);
            return null;
        }
    }

    private static Map<String, String> additional(NotificationRequestItem item) {
        return item.getAdditionalData() != null ? item.getAdditionalData() : Map.of();
    }

    private static String reason(NotificationRequestItem item, String otherwise) {
        return item.getReason() != null && !item.getReason().isBlank() ? item.getReason() : otherwise;
    }

    private static long isoAmount(long adyenValue, String currency, NotificationRequestItem item) {
        OptionalLong iso = AdyenCurrencies.UNITS.toIso(adyenValue, currency);
        if (iso.isEmpty()) {
            log.warn("Adyen notification pspReference {} reports {} {} in Adyen's units, which has no exact ISO 4217"
                    + " form: recorded as an amount mismatch", item.getPspReference(), adyenValue, currency);
            return NO_ISO_AMOUNT;
        }
        return iso.getAsLong();
    }
}
