package com.payorch.connectors.adyen;

import com.adyen.model.notification.NotificationRequest;
import com.adyen.model.notification.NotificationRequestItem;
import com.adyen.util.HMACValidator;
import com.payorch.gateway.ConnectorNotification;
import com.payorch.gateway.ConnectorWebhooks;
import com.payorch.gateway.GatewayStatus;
import com.payorch.webhooks.WebhookEndpointUnknown;
import com.payorch.webhooks.WebhookInvalid;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;

/**
 * Adyen's notifications, one endpoint per merchant (`POST /v1/webhooks/adyen/{merchantId}`). Adyen signs each
 * `NotificationRequestItem`, not the request: every item is checked with the SDK's {@link HMACValidator} and the
 * merchant's HMAC key (hex) and must name the merchant's account; an item that fails is not applied (logged, counted
 * as `invalid_signature`) and the batch is still answered `[accepted]`. `AUTHORISATION` items become notifications
 * (success=true → SUCCEEDED, false → FAILED with `reason`), deduplicated by pspReference + eventCode + success;
 * `REFUND` items whose merchantReference is one of our refund ids (`re_…`) become notifications about that refund
 * (success=true → SUCCEEDED, false → FAILED with `reason`); other event codes are not recorded.
 */
public class AdyenWebhooks {

    private static final Logger log = LoggerFactory.getLogger(AdyenWebhooks.class);

    private final AdyenAccounts accounts;

    public AdyenWebhooks(AdyenAccounts accounts) {
        this.accounts = accounts;
    }

    /** The adapter for one merchant's Adyen endpoint. */
    public ConnectorWebhooks forMerchant(@Nullable String merchantId) {
        AdyenAccounts.Account account = accounts.account(merchantId);
        if (account == null || account.getHmacKey() == null || account.getHmacKey().isBlank()) {
            throw new WebhookEndpointUnknown();
        }
        return new Adapter(merchantId, account);
    }

    private static final class Adapter implements ConnectorWebhooks {

        private final String merchantId;
        private final AdyenAccounts.Account account;

        Adapter(String merchantId, AdyenAccounts.Account account) {
            this.merchantId = merchantId;
            this.account = account;
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
            HMACValidator validator = new HMACValidator();
            List<ConnectorNotification> notifications = new ArrayList<>();
            for (NotificationRequestItem item : request.getNotificationItems()) {
                if (item == null) {
                    continue;
                }
                boolean valid;
                try {
                    valid = validator.validateHMAC(item, account.getHmacKey())
                            && account.getMerchantAccount() != null
                            && account.getMerchantAccount().equals(item.getMerchantAccountCode());
                } catch (Exception e) {
                    valid = false;
                }
                if (!valid) {
                    log.warn("Adyen notification item for merchant {} (pspReference {}) failed its HMAC or"
                            + " merchant account check; not applied", merchantId, item.getPspReference());
                    continue;
                }
                if ("REFUND".equals(item.getEventCode()) && item.getPspReference() != null
                        && item.getMerchantReference() != null && item.getMerchantReference().startsWith("re_")
                        && item.getAmount() != null && item.getAmount().getValue() != null
                        && item.getAmount().getCurrency() != null) {
                    // A refund this service asked for: merchantReference is our refund id (its `reference`).
                    boolean success = item.isSuccess();
                    notifications.add(new ConnectorNotification(
                            "adyen:" + item.getPspReference() + ":" + item.getEventCode() + ":" + success,
                            "REFUND", null, item.getPspReference(),
                            success ? GatewayStatus.SUCCEEDED : GatewayStatus.FAILED, item.getAmount().getValue(),
                            item.getAmount().getCurrency().toUpperCase(Locale.ROOT),
                            success ? null : (item.getReason() != null && !item.getReason().isBlank()
                                    ? item.getReason() : "refund_failed"),
                            item.getMerchantReference()));
                    continue;
                }
                if (!"AUTHORISATION".equals(item.getEventCode()) || item.getPspReference() == null
                        || item.getMerchantReference() == null || item.getAmount() == null
                        || item.getAmount().getValue() == null || item.getAmount().getCurrency() == null) {
                    continue;
                }
                boolean success = item.isSuccess();
                notifications.add(new ConnectorNotification(
                        "adyen:" + item.getPspReference() + ":" + item.getEventCode() + ":" + success,
                        "AUTHORISATION", item.getMerchantReference(), item.getPspReference(),
                        success ? GatewayStatus.SUCCEEDED : GatewayStatus.FAILED, item.getAmount().getValue(),
                        item.getAmount().getCurrency().toUpperCase(Locale.ROOT),
                        success ? null : (item.getReason() != null && !item.getReason().isBlank()
                                ? item.getReason() : "Refused")));
            }
            return notifications;
        }
    }
}
