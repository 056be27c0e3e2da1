package com.payorch.connectors.braintree;

import com.braintreegateway.Dispute;
import com.braintreegateway.DisputeTransaction;
import com.braintreegateway.StatusEvent;
import com.braintreegateway.Transaction;
import com.braintreegateway.WebhookNotification;
import com.braintreegateway.WebhookNotificationGateway;
import com.braintreegateway.exceptions.InvalidSignatureException;
import com.payorch.gateway.ConnectorNotification;
import com.payorch.gateway.ConnectorWebhooks;
import com.payorch.gateway.DisputeNotice;
import com.payorch.gateway.GatewayStatus;
import com.payorch.gateway.MappedStatus;
import com.payorch.webhooks.WebhookEndpointUnknown;
import com.payorch.webhooks.WebhookInvalid;
import java.math.BigDecimal;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Calendar;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;

/**
 * Braintree's webhooks, one endpoint per merchant (`POST /v1/webhooks/braintree/{merchantId}`): a form with
 * `bt_signature` and `bt_payload`, verified and parsed by the SDK's {@link WebhookNotificationGateway} with the
 * merchant's public and private key (a failure is the pipeline's signature failure).
 * <ul>
 *   <li>`transaction_settled` / `transaction_settlement_declined` about a sale: the charge's outcome (SUCCEEDED /
 *       FAILED `settlement_declined: …`), reference = the transaction id, payment and attempt = those of its
 *       `orderId` (the attempt's key, {@code ChargeRequest#idempotencyKey}: `pay_…` for attempt 1,
 *       `pay_…-attempt-N`): bound to that attempt exactly;</li>
 *   <li>the same kinds about a credit (a refund, `refunded-transaction-id` set), and `refund_failed`: the refund's
 *       outcome, bound to our refund id, the credit's `orderId`;</li>
 *   <li>the dispute kinds (a chargeback of a sale): a dispute report about the disputed sale, reference = the
 *       dispute's `transaction.id`, payment and attempt = those of the transaction's `orderId` as above (bound by the
 *       reference alone when it has none), the dispute's id, its disputed amount and currency, reason and
 *       `replyByDate` (evidence due). `dispute_opened` opens it; `dispute_under_review` (PayPal reviews the evidence)
 *       and `dispute_disputed` (the merchant contested it) change it; `dispute_won` closes it WON (also a reversal
 *       of a lost one); `dispute_lost`, `dispute_accepted` and `dispute_auto_accepted` (the merchant, or Braintree
 *       for them, accepted the chargeback) and `dispute_expired` (the reply-by date passed without a response)
 *       close it LOST. A sale the service did not make is left to the pipeline (nothing recorded);</li>
 *   <li>any other kind: answered `ignored`, nothing recorded. Braintree sends no webhook when a sale is voided or
 *       its authorisation expires: a hold learns those from its release's answer and from look-ups
 *       ({@link BraintreeGateway#find}).</li>
 * </ul>
 * Receipt id: `braintree:<kind>:<transaction id>` (a transaction settles or is declined once, so Braintree's
 * redelivery of the notification is a duplicate); a dispute's `braintree:<kind>:<dispute id>:<timestamp>` (the
 * notification's timestamp, epoch seconds: a redelivery repeats it, while a dispute may be reviewed or contested
 * more than once, and lost then won then lost again).
 */
public class BraintreeWebhooks {

    private static final Pattern ATTEMPT_SUFFIX = Pattern.compile("-attempt-(\\d{1,9})$");

    private final BraintreeSettings settings;
    private final BraintreeAccounts accounts;

    public BraintreeWebhooks(BraintreeSettings settings, BraintreeAccounts accounts) {
        this.settings = settings;
        this.accounts = accounts;
    }

    /** The adapter for one merchant's Braintree endpoint. */
    public ConnectorWebhooks forMerchant(@Nullable String merchantId) {
        BraintreeAccounts.Account account = accounts.of(merchantId);
        if (account == null) {
            throw new WebhookEndpointUnknown();
        }
        return new Adapter(merchantId,
                new WebhookNotificationGateway(BraintreeGateway.configuration(settings, account)));
    }

    private static final class Adapter implements ConnectorWebhooks {

        private final String merchantId;
        private final WebhookNotificationGateway sdk;

        Adapter(String merchantId, WebhookNotificationGateway sdk) {
            this.merchantId = merchantId;
            this.sdk = sdk;
        }

        @Override
        public String connector() {
            return BraintreeGateway.NAME;
        }

        @Override
        public String merchantId() {
            return merchantId;
        }

        @Override
        public boolean verify(HttpHeaders headers, byte[] rawBody) {
            Map<String, String> form = form(rawBody);
            String signature = form.get("bt_signature");
            String payload = form.get("bt_payload");
            if (signature == null || payload == null) {
                return false;
            }
            try {
                sdk.parse(signature, payload);
                return true;
            } catch (InvalidSignatureException e) {
                return false;
            } catch (RuntimeException signedButUnreadable) {
                return true;
            }
        }

        @Override
        public List<ConnectorNotification> parse(HttpHeaders headers, byte[] rawBody) {
            Map<String, String> form = form(rawBody);
            WebhookNotification notification;
            try {
                notification = sdk.parse(form.get("bt_signature"), form.get("bt_payload"));
            } catch (RuntimeException e) {
                throw new WebhookInvalid("The payload is not a Braintree notification.");
            }
            WebhookNotification.Kind kind = notification.getKind();
            DisputeNotice.Kind disputeKind = disputeKind(kind);
            if (disputeKind != null) {
                return List.of(dispute(notification, disputeKind));
            }
            if (kind != WebhookNotification.Kind.TRANSACTION_SETTLED
                    && kind != WebhookNotification.Kind.TRANSACTION_SETTLEMENT_DECLINED
                    && kind != WebhookNotification.Kind.REFUND_FAILED) {
                return List.of();
            }
            Transaction transaction = notification.getTransaction();
            if (transaction == null || transaction.getId() == null || transaction.getAmount() == null
                    || transaction.getCurrencyIsoCode() == null || transaction.getOrderId() == null) {
                throw new WebhookInvalid("A transaction notification needs the transaction's id, amount, currency"
                        + " and order id.");
            }
            String type = kind.toString();
            String currency = transaction.getCurrencyIsoCode().toUpperCase(Locale.ROOT);
            long amount;
            try {
                amount = BraintreeAmounts.minorUnits(chargedAmount(transaction), currency);
            } catch (ArithmeticException | IllegalArgumentException e) {
                throw new WebhookInvalid("The transaction's amount or currency is not valid.");
            }
            String receiptId = "braintree:" + type + ":" + transaction.getId();
            boolean refund = kind == WebhookNotification.Kind.REFUND_FAILED
                    || transaction.getType() == Transaction.Type.CREDIT;
            MappedStatus mapped = BraintreeStatuses.of(transaction);
            GatewayStatus status = switch (kind) {
                case TRANSACTION_SETTLED -> GatewayStatus.SUCCEEDED;
                default -> GatewayStatus.FAILED;
            };
            String failureReason = status == GatewayStatus.FAILED
                    ? (mapped.status() == GatewayStatus.FAILED ? mapped.failureReason() : type) : null;
            if (refund) {
                return List.of(new ConnectorNotification(receiptId, type, null, transaction.getId(), status, amount,
                        currency, failureReason, transaction.getOrderId()));
            }
            return List.of(new ConnectorNotification(receiptId, type, paymentId(transaction.getOrderId()),
                    attempt(transaction.getOrderId()), transaction.getId(), status, amount, currency, failureReason,
                    null));
        }
    }

    /** What a dispute kind says of the dispute, null for a kind that is not about a dispute. */
    static DisputeNotice.@Nullable Kind disputeKind(WebhookNotification.Kind kind) {
        return switch (kind) {
            case DISPUTE_OPENED -> DisputeNotice.Kind.OPENED;
            case DISPUTE_UNDER_REVIEW, DISPUTE_DISPUTED -> DisputeNotice.Kind.UPDATED;
            case DISPUTE_WON -> DisputeNotice.Kind.WON;
            case DISPUTE_LOST, DISPUTE_ACCEPTED, DISPUTE_AUTO_ACCEPTED, DISPUTE_EXPIRED -> DisputeNotice.Kind.LOST;
            default -> null;
        };
    }

    private static ConnectorNotification dispute(WebhookNotification notification, DisputeNotice.Kind disputeKind) {
        Dispute dispute = notification.getDispute();
        DisputeTransaction sale = dispute == null ? null : dispute.getTransaction();
        BigDecimal disputed = dispute == null ? null
                : dispute.getDisputedAmount() != null ? dispute.getDisputedAmount() : dispute.getAmount();
        if (dispute == null || dispute.getId() == null || sale == null || sale.getId() == null || disputed == null
                || dispute.getCurrencyIsoCode() == null || notification.getTimestamp() == null) {
            throw new WebhookInvalid("A dispute notification needs the dispute's id, amount, currency and"
                    + " transaction, and a timestamp.");
        }
        String currency = dispute.getCurrencyIsoCode().toUpperCase(Locale.ROOT);
        long amount;
        try {
            amount = BraintreeAmounts.minorUnits(disputed, currency);
        } catch (ArithmeticException | IllegalArgumentException e) {
            throw new WebhookInvalid("The dispute's amount or currency is not valid.");
        }
        Instant occurredAt = notification.getTimestamp().toInstant();
        String type = notification.getKind().toString();
        String receiptId = "braintree:" + type + ":" + dispute.getId() + ":" + occurredAt.getEpochSecond();
        DisputeNotice notice = new DisputeNotice(dispute.getId(), disputeKind, amount, currency, reason(dispute),
                instant(dispute.getReplyByDate()), occurredAt);
        String orderId = sale.getOrderId();
        return ConnectorNotification.aboutDispute(receiptId, type, orderId == null ? null : paymentId(orderId),
                orderId == null ? null : attempt(orderId), sale.getId(), notice);
    }

    private static @Nullable String reason(Dispute dispute) {
        if (dispute.getReason() != null) {
            return dispute.getReason().name().toLowerCase(Locale.ROOT);
        }
        return dispute.getReasonCode();
    }

    private static @Nullable Instant instant(@Nullable Calendar date) {
        return date == null ? null : date.toInstant();
    }

    /**
     * The amount the sale was made for: the service compares it with the payment's. A hold captured in part reports
     * the amount settled as its `amount`, so a sale's is read from its `authorized` status event when it has one.
     */
    static BigDecimal chargedAmount(Transaction transaction) {
        if (transaction.getType() == Transaction.Type.SALE && transaction.getStatusHistory() != null) {
            for (StatusEvent event : transaction.getStatusHistory()) {
                if (event.getStatus() == Transaction.Status.AUTHORIZED && event.getAmount() != null) {
                    return event.getAmount();
                }
            }
        }
        return transaction.getAmount();
    }

    /** The payment id in an attempt's key (`pay_…` or `pay_…-attempt-N`). */
    static String paymentId(String orderId) {
        return ATTEMPT_SUFFIX.matcher(orderId).replaceFirst("");
    }

    /** The attempt an attempt's key names: N of `pay_…-attempt-N`, else the first. */
    static int attempt(String orderId) {
        Matcher suffix = ATTEMPT_SUFFIX.matcher(orderId);
        return suffix.find() ? Integer.parseInt(suffix.group(1)) : 1;
    }

    private static Map<String, String> form(byte[] rawBody) {
        Map<String, String> form = new HashMap<>();
        for (String pair : new String(rawBody, StandardCharsets.UTF_8).split("&")) {
            int equals = pair.indexOf('=');
            if (equals > 0) {
                try {
                    form.putIfAbsent(URLDecoder.decode(pair.substring(0, equals), StandardCharsets.UTF_8),
                            URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8));
                } catch (IllegalArgumentException malformed) {
                    // a malformed escape: the field is absent, so the signature check fails
                }
            }
        }
        return form;
    }
}
