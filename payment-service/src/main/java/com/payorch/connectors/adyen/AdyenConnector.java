package com.payorch.connectors.adyen;

import com.payorch.connectors.ConnectorSettingsCheck;
import com.payorch.gateway.Connector;
import com.payorch.gateway.ConnectorCapability;
import com.payorch.gateway.ConnectorWebhooks;
import com.payorch.gateway.CurrencyUnits;
import com.payorch.gateway.PaymentGateway;
import com.payorch.gateway.WebhookAcknowledgement;
import com.payorch.gateway.WebhookEndpointDescription;
import com.payorch.gateway.WebhookSignatureFailures;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * Adyen as a plug-in: its gateway on its own bounded thread pool (`payments.connectors.adyen.threads`; the SDK
 * blocks), and per merchant the notification endpoint `/v1/webhooks/adyen/{merchantId}`, answered `[accepted]`.
 * Checkout has no look-up of a payment by our reference, so {@link com.payorch.gateway.ConnectorCapability#LOOKUP}
 * is not among its capabilities: what became of an attempt is confirmed by its notification, or by a cancel by
 * reference confirmed with `TECHNICAL_CANCEL`. Amounts in Adyen's units ({@link AdyenCurrencies}); keys are resent
 * only within `payments.connectors.adyen.idempotency-key-lifetime` (Adyen keeps them at least 31 days). Holds:
 * `additionalData.manualCapture=true` per payment, captured and released by pspReference (`/captures`, `/cancels`).
 */
@Component
class AdyenConnector implements Connector, DisposableBean {

    private final AdyenSettings settings;
    private final Scheduler scheduler;
    private final AdyenGateway gateway;
    private final AdyenWebhooks webhooks;

    /** Adyen's keys are kept "for a minimum of 31 days": a resend must come before that, never on the day. */
    static final Duration ADYEN_KEEPS_KEYS = Duration.ofDays(31);

    AdyenConnector(AdyenSettings settings, AdyenAccounts accounts, WebhookSignatureFailures signatureFailures) {
        this.settings = settings;
        this.scheduler = Schedulers.newBoundedElastic(Math.max(1, settings.getThreads()), 10_000, "connector-io-adyen");
        this.gateway = new AdyenGateway(settings, accounts, scheduler);
        this.webhooks = new AdyenWebhooks(accounts, signatureFailures);
    }

    @Override
    public String name() {
        return AdyenGateway.NAME;
    }

    @Override
    public PaymentGateway gateway() {
        return gateway;
    }

    @Override
    public ConnectorWebhooks webhooksFor(@Nullable String merchantId) {
        return webhooks.forMerchant(merchantId);
    }

    @Override
    public WebhookEndpointDescription webhookEndpoint() {
        return new WebhookEndpointDescription("receiveAdyenNotifications",
                "A batch of Adyen notifications for one merchant's account",
                "Not authenticated by an API key: each NotificationRequestItem is verified with the merchant's"
                        + " HMAC key, or either of two during a rotation (an item that does not verify is not"
                        + " applied and is counted; the batch is still answered). Deduplicated by pspReference +"
                        + " eventCode + success. The body is Adyen's"
                        + " notification request (see docs/connectors.md). A charge whose attempt cannot be told"
                        + " yet is answered 503 (502 when the connector could not be asked), nothing recorded,"
                        + " so that it is delivered again.",
                List.of(), null, "Adyen's notification request", null);
    }

    @Override
    public WebhookAcknowledgement acknowledgement() {
        return WebhookAcknowledgement.ACCEPTED_TEXT;
    }

    @Override
    public Set<ConnectorCapability> capabilities() {
        return Set.of(ConnectorCapability.REFUNDS, ConnectorCapability.CAPTURE,
                ConnectorCapability.CANCEL_BY_REFERENCE);
    }

    @Override
    public Optional<Duration> idempotencyKeyLifetime() {
        return Optional.of(settings.getIdempotencyKeyLifetime());
    }

    @Override
    public CurrencyUnits currencyUnits() {
        return AdyenCurrencies.UNITS;
    }

    @Override
    public void checkSettings() {
        ConnectorSettingsCheck.httpUrl("payments.connectors.adyen.checkout-url", settings.getCheckoutUrl());
        ConnectorSettingsCheck.transport("payments.connectors.adyen", settings);
        String lifetimeKey = "payments.connectors.adyen.idempotency-key-lifetime";
        Duration lifetime = settings.getIdempotencyKeyLifetime();
        ConnectorSettingsCheck.positive(lifetimeKey, lifetime);
        if (lifetime.compareTo(ADYEN_KEEPS_KEYS) >= 0) {
            throw new IllegalStateException(lifetimeKey + " must be below 31 days (Adyen keeps idempotency keys for"
                    + " at least 31 days; a resend after that may charge again): " + lifetime);
        }
    }

    @Override
    public void destroy() {
        scheduler.dispose();
    }
}
