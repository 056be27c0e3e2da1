package com.payorch.connectors.braintree;

import com.payorch.connectors.ConnectorSettingsCheck;
import com.payorch.gateway.Connector;
import com.payorch.gateway.ConnectorCapability;
import com.payorch.gateway.CurrencyUnits;
import com.payorch.gateway.ConnectorWebhooks;
import com.payorch.gateway.PaymentGateway;
import com.payorch.gateway.SignatureFailure;
import com.payorch.gateway.WebhookAcknowledgement;
import com.payorch.gateway.WebhookEndpointDescription;
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
 * Braintree as a plug-in: its gateway on its own bounded thread pool (`payments.connectors.braintree.threads`; the
 * SDK blocks), and per merchant the webhook endpoint `/v1/webhooks/braintree/{merchantId}`, answered
 * `{"status": …}`.
 */
@Component
class BraintreeConnector implements Connector, DisposableBean {

    private final BraintreeSettings settings;
    private final Scheduler scheduler;
    private final BraintreeGateway gateway;
    private final BraintreeWebhooks webhooks;

    BraintreeConnector(BraintreeSettings settings, BraintreeAccounts accounts) {
        this.settings = settings;
        this.scheduler = Schedulers.newBoundedElastic(Math.max(1, settings.getThreads()), 10_000,
                "connector-io-braintree");
        this.gateway = new BraintreeGateway(settings, accounts, scheduler);
        this.webhooks = new BraintreeWebhooks(settings, accounts);
    }

    @Override
    public String name() {
        return BraintreeGateway.NAME;
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
        return new WebhookEndpointDescription("receiveBraintreeWebhook",
                "A Braintree webhook for one merchant's Braintree account",
                "Authenticated by its `bt_signature` over `bt_payload` (form fields), verified by braintree-java with"
                        + " the merchant's Braintree keys, not by an API key. Deduplicated by kind and transaction"
                        + " id. Kinds used: `transaction_settled`, `transaction_settlement_declined` (sales and the"
                        + " credits of refunds made by this service; a hold's capture settles as its sale),"
                        + " `refund_failed`; others are answered `ignored`"
                        + " (see docs/connectors.md).",
                List.of(), null, "Braintree's form: `bt_signature`, `bt_payload`", SignatureFailure.UNAUTHORIZED);
    }

    @Override
    public WebhookAcknowledgement acknowledgement() {
        return WebhookAcknowledgement.STATUS_JSON;
    }

    /**
     * Braintree has no idempotency keys: every submit and refund first searches by the attempt's (the refund's)
     * `orderId` and answers the transaction found instead of making a second one, so a resend is safe for as long
     * as the service needs: no lifetime.
     */
    @Override
    public Optional<Duration> idempotencyKeyLifetime() {
        return Optional.empty();
    }

    @Override
    public CurrencyUnits currencyUnits() {
        return BraintreeAmounts.UNITS;
    }

    @Override
    public Set<ConnectorCapability> capabilities() {
        return Set.of(ConnectorCapability.REFUNDS, ConnectorCapability.LOOKUP, ConnectorCapability.CAPTURE);
    }

    @Override
    public void checkSettings() {
        ConnectorSettingsCheck.httpUrl("payments.connectors.braintree.base-url", settings.getBaseUrl());
        ConnectorSettingsCheck.transport("payments.connectors.braintree", settings);
    }

    @Override
    public void destroy() {
        scheduler.dispose();
    }
}
