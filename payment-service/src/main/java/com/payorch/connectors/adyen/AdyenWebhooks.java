package com.payorch.connectors.adyen;

import com.adyen.model.notification.NotificationRequest;
import com.adyen.model.notification.NotificationRequestItem;
import com.adyen.util.HMACValidator;
import com.payorch.gateway.CaptureMethod;
import com.payorch.gateway.ConnectorNotification;
import com.payorch.gateway.ConnectorWebhooks;
import com.payorch.gateway.DisputeNotice;
import com.payorch.gateway.GatewayStatus;
import com.payorch.gateway.WebhookSignatureFailures;
import com.payorch.webhooks.WebhookEndpointUnknown;
import com.payorch.webhooks.WebhookInvalid;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
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
 *   <li>`AUTHORISATION`: the charge (success=true → SUCCEEDED, or AUTHORIZED for a manual-capture payment, which
 *       the submit marks with `metadata.captureMethod=manual`; false → FAILED with `reason`), bound to the attempt
 *       named by `additionalData.metadata.attempt` (sent as `metadata.attempt` on `/payments`).</li>
 *   <li>`CAPTURE` (success=true → SUCCEEDED, the captured amount; false → CAPTURE_FAILED with `reason`) and
 *       `CAPTURE_FAILED` (the card scheme rejected the capture → CAPTURE_FAILED with `reason`): about the payment's
 *       pspReference (`originalReference`).</li>
 *   <li>`CANCELLATION` and `EXPIRE` with success=true: the authorisation was released (by our cancel, in the Customer
 *       Area) or lapsed → CANCELLED (reason `cancelled` / `authorization_expired`, kept if it FAILS an automatic
 *       payment). `TECHNICAL_CANCEL` with success=true (the answer to `POST /cancels` by our reference) → CANCELLED
 *       with the reason "confirmed: nothing was taken" (`gateway_unreachable`): a manual payment ends CANCELLED, an
 *       automatic one given up FAILED `gateway_unreachable`. success=false (Adyen could not cancel: captured) is
 *       logged, nothing else.</li>
 *   <li>`REFUND` and `CANCEL_OR_REFUND` (a reversal of an orphaned charge) whose merchantReference is one of our refund
 *       ids (`re_…`): that refund SUCCEEDED or FAILED; `REFUND_FAILED` and `REFUNDED_REVERSED`: that refund FAILED
 *       (after SUCCEEDED: reversed).</li>
 *   <li>Disputes (chargebacks) of the payment `originalReference`, reported as {@link DisputeNotice}s:
 *       `NOTIFICATION_OF_CHARGEBACK` and `REQUEST_FOR_INFORMATION` OPENED, `CHARGEBACK`, `SECOND_CHARGEBACK` and
 *       `PREARBITRATION_LOST` LOST, `CHARGEBACK_REVERSED` and `PREARBITRATION_WON` WON, `INFORMATION_SUPPLIED` and
 *       `DISPUTE_DEFENSE_PERIOD_ENDED` UPDATED; the reason `additionalData.chargebackReasonCode` (else `reason`),
 *       the evidence due date `additionalData.defensePeriodEndsAt`. The dispute is named by the payment's
 *       pspReference (see {@link #dispute}).</li>
 * </ul>
 * Amounts are converted from Adyen's units back to ISO 4217 minor units ({@link AdyenCurrencies}); other event codes
 * are not recorded.
 */
public class AdyenWebhooks {

    private static final Logger log = LoggerFactory.getLogger(AdyenWebhooks.class);

    /** How Adyen returns the `/payments` metadata in a notification's `additionalData`. */
    static final String PAYMENT_ID = "metadata." + AdyenGateway.METADATA_PAYMENT_ID;
    static final String ATTEMPT = "metadata." + AdyenGateway.METADATA_ATTEMPT;
    static final String CAPTURE_METHOD = "metadata." + AdyenGateway.METADATA_CAPTURE_METHOD;

    /** A capture Adyen refused or the card scheme rejected, when the item gives no reason. */
    static final String CAPTURE_FAILED = "capture_failed";

    /** Why an automatic payment FAILS when Adyen reports its authorisation cancelled (not our cancel by reference). */
    static final String CANCELLED = "cancelled";

    /** Why it FAILS when Adyen reports that its authorisation lapsed before it was captured. */
    static final String AUTHORIZATION_EXPIRED = "authorization_expired";

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
                            item.getPspReference(), success ? authorised(item) : GatewayStatus.FAILED, amount,
                            currency, success ? null : reason(item, "Refused"), null);
            case "CAPTURE" -> modification(item, receiptId, amount, currency,
                    success ? GatewayStatus.SUCCEEDED : GatewayStatus.CAPTURE_FAILED,
                    success ? null : reason(item, CAPTURE_FAILED));
            case "CAPTURE_FAILED" -> {
                if (!success) {
                    log.warn("Adyen CAPTURE_FAILED pspReference {} for payment {} has success=false; nothing applied",
                            item.getPspReference(), item.getMerchantReference());
                    yield null;
                }
                yield modification(item, receiptId, amount, currency, GatewayStatus.CAPTURE_FAILED,
                        reason(item, CAPTURE_FAILED));
            }
            case "CANCELLATION", "EXPIRE" -> {
                if (!success) {
                    log.warn("Adyen {} pspReference {} for payment {} was not successful ({}): the authorisation is"
                            + " still held, or was captured; nothing applied", event, item.getPspReference(),
                            item.getMerchantReference(), item.getReason());
                    yield null;
                }
                // The hold was released (by our cancel, in the Customer Area, or because it lapsed): applied like a
                // cancel; an automatic payment's attempt that Adyen cancelled before it took money FAILS.
                yield modification(item, receiptId, amount, currency, GatewayStatus.CANCELLED,
                        event.equals("EXPIRE") ? AUTHORIZATION_EXPIRED : CANCELLED);
            }
            case "TECHNICAL_CANCEL" -> {
                if (!success) {
                    log.warn("Adyen {} pspReference {} for payment {} was not successful ({}): the authorisation is"
                            + " still held (captured?); nothing applied", event, item.getPspReference(),
                            item.getMerchantReference(), item.getReason());
                    yield null;
                }
                // Adyen's answer to our cancel by reference: nothing is held for the payment any more. CANCELLED with
                // the reason "confirmed: nothing was taken": a manual payment ends CANCELLED, an automatic one (the
                // give-up's cancel) FAILED gateway_unreachable. The payment's own pspReference when Adyen held one
                // (originalReference), else the cancel's.
                yield new ConnectorNotification(receiptId, event, paymentId(item), attempt(item), charge(item),
                        GatewayStatus.CANCELLED, amount, currency, CONFIRMED_NOTHING_TAKEN, null);
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
            case "NOTIFICATION_OF_CHARGEBACK", "REQUEST_FOR_INFORMATION" ->
                    dispute(item, receiptId, DisputeNotice.Kind.OPENED, amount, currency);
            case "CHARGEBACK", "SECOND_CHARGEBACK", "PREARBITRATION_LOST" ->
                    dispute(item, receiptId, DisputeNotice.Kind.LOST, amount, currency);
            case "CHARGEBACK_REVERSED", "PREARBITRATION_WON" ->
                    dispute(item, receiptId, DisputeNotice.Kind.WON, amount, currency);
            case "INFORMATION_SUPPLIED", "DISPUTE_DEFENSE_PERIOD_ENDED" ->
                    dispute(item, receiptId, DisputeNotice.Kind.UPDATED, amount, currency);
            default -> null;
        };
    }

    /**
     * A dispute report about the payment `originalReference`. Adyen has at most one dispute per payment per dispute
     * cycle, and its items carry no dispute id of their own in `additionalData` (only `chargebackReasonCode`,
     * `chargebackSchemeCode`, `defensePeriodEndsAt`, `disputeStatus`, ...): the dispute is named by the payment's
     * pspReference, so every report of the cycle (NoC, chargeback, reversal, second chargeback) reaches the same
     * dispute, whatever order Adyen delivers them in.
     */
    private static @Nullable ConnectorNotification dispute(NotificationRequestItem item, String receiptId,
                                                           DisputeNotice.Kind kind, long amount, String currency) {
        String payment = item.getOriginalReference();
        if (payment == null || payment.isBlank()) {
            log.warn("Adyen {} pspReference {} names no originalReference (the disputed payment); nothing applied",
                    item.getEventCode(), item.getPspReference());
            return null;
        }
        if (!item.isSuccess()) {
            log.warn("Adyen {} pspReference {} about payment {} has success=false; nothing applied",
                    item.getEventCode(), item.getPspReference(), payment);
            return null;
        }
        if (amount == NO_ISO_AMOUNT) {
            return null;
        }
        Map<String, String> additional = additional(item);
        String reasonCode = additional.get("chargebackReasonCode");
        String reason = reasonCode != null && !reasonCode.isBlank() ? reasonCode
                : item.getReason() != null && !item.getReason().isBlank() ? item.getReason() : null;
        Instant occurredAt = item.getEventDate() != null ? item.getEventDate().toInstant() : Instant.now();
        DisputeNotice notice = new DisputeNotice(payment, kind, amount, currency, reason,
                evidenceDueBy(item, additional.get("defensePeriodEndsAt")), occurredAt);
        return ConnectorNotification.aboutDispute(receiptId, item.getEventCode(), paymentId(item), attempt(item),
                payment, notice);
    }

    /** `additionalData.defensePeriodEndsAt` (ISO 8601 with offset, `2021-05-24T22:09:50+02:00`), when readable. */
    private static @Nullable Instant evidenceDueBy(NotificationRequestItem item, @Nullable String defensePeriodEndsAt) {
        if (defensePeriodEndsAt == null || defensePeriodEndsAt.isBlank()) {
            return null;
        }
        try {
            return OffsetDateTime.parse(defensePeriodEndsAt.trim()).toInstant();
        } catch (DateTimeParseException e) {
            log.warn("Adyen {} pspReference {}: defensePeriodEndsAt '{}' is not ISO 8601; no evidence due date",
                    item.getEventCode(), item.getPspReference(), defensePeriodEndsAt);
            return null;
        }
    }

    /**
     * A modification of the payment (capture, cancellation, expiry): about the payment's pspReference
     * (`originalReference`); Adyen's modification notifications carry no `/payments` metadata, so the payment and the
     * attempt come from our own modification reference when `merchantReference` is one ({@link #ourReference}).
     */
    private static ConnectorNotification modification(NotificationRequestItem item, String receiptId, long amount,
                                                      String currency, GatewayStatus status,
                                                      @Nullable String failureReason) {
        return new ConnectorNotification(receiptId, item.getEventCode(), paymentId(item), attempt(item), charge(item),
                status, amount, currency, failureReason, null);
    }

    /** The payment's own pspReference: `originalReference` of a modification, else the item's pspReference. */
    private static String charge(NotificationRequestItem item) {
        return item.getOriginalReference() != null && !item.getOriginalReference().isBlank()
                ? item.getOriginalReference() : item.getPspReference();
    }

    /** AUTHORISATION success: a hold when the submit said it waits for a capture (metadata.captureMethod). */
    private static GatewayStatus authorised(NotificationRequestItem item) {
        return CaptureMethod.MANUAL.value().equals(additional(item).get(CAPTURE_METHOD)) ? GatewayStatus.AUTHORIZED
                : GatewayStatus.SUCCEEDED;
    }

    /**
     * The payment id and attempt key a modification reference of ours starts with: the attempt's key (`pay_…` for
     * attempt 1, `pay_…-attempt-N`) followed by `-capture-<n>` or `-cancel`; null for any other reference.
     */
    static @Nullable AttemptKey ourReference(@Nullable String reference) {
        if (reference == null) {
            return null;
        }
        java.util.regex.Matcher matcher = MODIFICATION_REFERENCE.matcher(reference);
        if (!matcher.matches()) {
            return null;
        }
        return new AttemptKey(matcher.group(1), matcher.group(2) == null ? 1 : Integer.parseInt(matcher.group(2)));
    }

    record AttemptKey(String paymentId, int attempt) {
    }

    private static final java.util.regex.Pattern MODIFICATION_REFERENCE =
            java.util.regex.Pattern.compile(
                    "(pay_[A-Za-z0-9]+)(?:-attempt-([1-9][0-9]{0,8}))?-(?:capture-[1-9][0-9]*|cancel)");

    /** Our refund id when the item's merchantReference is one (the `reference` our refund or reversal carried). */
    private static @Nullable String ourRefund(NotificationRequestItem item) {
        String reference = item.getMerchantReference();
        return reference != null && reference.startsWith("re_") ? reference : null;
    }

    private static String paymentId(NotificationRequestItem item) {
        String named = additional(item).get(PAYMENT_ID);
        if (named != null && !named.isBlank()) {
            return named;
        }
        AttemptKey ours = ourReference(item.getMerchantReference());
        return ours != null ? ours.paymentId() : item.getMerchantReference();
    }

    private static @Nullable Integer attempt(NotificationRequestItem item) {
        String named = additional(item).get(ATTEMPT);
        if (named == null) {
            AttemptKey ours = ourReference(item.getMerchantReference());
            return ours != null ? ours.attempt() : null;
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
