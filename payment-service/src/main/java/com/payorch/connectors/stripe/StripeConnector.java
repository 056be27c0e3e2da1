package com.payorch.connectors.stripe;

import com.payorch.connectors.ConnectorSettingsCheck;
import com.payorch.gateway.Connector;
import com.payorch.gateway.ConnectorCapability;
import com.payorch.gateway.ConnectorWebhooks;
import com.payorch.gateway.CurrencyUnits;
import com.payorch.gateway.PaymentGateway;
import com.payorch.gateway.SignatureFailure;
import com.payorch.gateway.WebhookAcknowledgement;
import com.payorch.gateway.WebhookEndpointDescription;
import java.time.Clock;
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
 * Stripe as a plug-in: its gateway on its own bounded thread pool (`payments.connectors.stripe.threads`; the SDK
 * blocks), and per merchant the webhook endpoint `/v1/webhooks/stripe/{merchantId}`, answered `{"status": …}`.
 */
@Component
class StripeConnector implements Connector, DisposableBean {

    /** "You can remove keys from the system automatically after they're at least 24 hours old" (Stripe's docs). */
    private static final Duration STRIPE_KEEPS_KEYS = Duration.ofHours(24);

    private final StripeSettings settings;
    private final Scheduler scheduler;
    private final StripeGateway gateway;
    private final StripeWebhooks webhooks;

    StripeConnector(StripeSettings settings, StripeAccounts accounts, Clock clock) {
        this.settings = settings;
        this.scheduler = Schedulers.newBoundedElastic(Math.max(1, settings.getThreads()), 10_000, "connector-io-stripe");
        this.gateway = new StripeGateway(settings, accounts, scheduler, clock);
        this.webhooks = new StripeWebhooks(accounts, clock);
    }

    @Override
    public String name() {
        return StripeGateway.NAME;
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
        return new WebhookEndpointDescription("receiveStripeWebhook", "A Stripe event for one merchant's Stripe account",
                "Authenticated by the `Stripe-Signature` header with the merchant's Stripe webhook secret (300 s"
                        + " tolerance), not by an API key. Deduplicated by the Stripe event id. Types used:"
                        + " `payment_intent.processing`, `payment_intent.succeeded`,"
                        + " `payment_intent.payment_failed`, `payment_intent.amount_capturable_updated` (a hold),"
                        + " `payment_intent.canceled` (a hold released), `refund.updated`, `refund.failed`,"
                        + " `charge.refunded`"
                        + " (refunds made by this service); others are answered `ignored`. The body is Stripe's"
                        + " event object (see docs/connectors.md).",
                List.of("Stripe-Signature"), null, "Stripe's event object", SignatureFailure.BAD_REQUEST);
    }

    @Override
    public WebhookAcknowledgement acknowledgement() {
        return WebhookAcknowledgement.STATUS_JSON;
    }

    @Override
    public Set<ConnectorCapability> capabilities() {
        return Set.of(ConnectorCapability.REFUNDS, ConnectorCapability.LOOKUP, ConnectorCapability.CAPTURE);
    }

    /** Below Stripe's 24 hours (https://docs.stripe.com/idempotency): checked at start. */
    @Override
    public Optional<Duration> idempotencyKeyLifetime() {
        return Optional.of(settings.getIdempotencyKeyLifetime());
    }

    @Override
    public CurrencyUnits currencyUnits() {
        return StripeCurrencies.UNITS;
    }

    @Override
    public void checkSettings() {
        ConnectorSettingsCheck.httpUrl("payments.connectors.stripe.api-base", settings.getApiBase());
        ConnectorSettingsCheck.transport("payments.connectors.stripe", settings);
        checkOwnSettings(settings);
    }

    /** What only Stripe needs: a key lifetime Stripe honours, a search delay. */
    static void checkOwnSettings(StripeSettings settings) {
        String lifetimeKey = "payments.connectors.stripe.idempotency-key-lifetime";
        ConnectorSettingsCheck.positive(lifetimeKey, settings.getIdempotencyKeyLifetime());
        if (settings.getIdempotencyKeyLifetime().compareTo(STRIPE_KEEPS_KEYS) >= 0) {
            throw new IllegalStateException(lifetimeKey + " must be below 24 hours (Stripe prunes idempotency keys"
                    + " after at least 24 hours, then the same key makes a new charge): "
                    + settings.getIdempotencyKeyLifetime());
        }
        ConnectorSettingsCheck.positive("payments.connectors.stripe.search-delay", settings.getSearchDelay());
    }

    @Override
    public void destroy() {
        scheduler.dispose();
    }
}
