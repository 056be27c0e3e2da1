package com.payorch.gateway;

import java.time.Duration;
import java.util.Optional;

import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * One payment connector plugged into the service: a folder under {@code com.payorch.connectors} publishes one bean
 * of this type, and nothing outside that folder names the connector's classes. The router sends attempts to its
 * {@link #gateway()}; the webhook endpoint {@code POST /v1/webhooks/{name}/{merchantId}} hands the raw request to
 * {@link #webhooksFor}.
 */
public interface Connector {

    /** The connector's name as routes, attempts and webhook paths spell it (`sandbox`, `stripe`, `adyen`, ...). */
    String name();

    /** The connector's gateway, unbounded in time: the router puts the service's time limit around it. */
    PaymentGateway gateway();

    /**
     * The webhook adapter for one merchant's endpoint ({@code merchantId} null: the path named no merchant).
     *
     * @throws RuntimeException the webhooks module's "endpoint unknown" refusal when the merchant has no webhook
     *                          secret for this connector, or the connector takes no webhooks at that path
     */
    ConnectorWebhooks webhooksFor(@Nullable String merchantId);

    /**
     * Whether its webhook endpoints are per merchant ({@code /v1/webhooks/{name}/{merchantId}}, each merchant's own
     * PSP account) or one for the whole service ({@code /v1/webhooks/{name}}).
     */
    default boolean webhooksPerMerchant() {
        return true;
    }

    /** What the API description says about the webhook endpoint. */
    WebhookEndpointDescription webhookEndpoint();

    /** How a verified webhook request is answered, whatever became of the notifications it carried. */
    WebhookAcknowledgement acknowledgement();

    /** What the connector can do beyond submitting a charge. */
    Set<ConnectorCapability> capabilities();

    /**
     * How long the connector honours an idempotency key after its first use
     * ({@code payments.connectors.<name>.idempotency-key-lifetime}); empty: for as long as the service needs (the
     * sandbox, a connector that looks its charges up before any resend). Past it the service never resends with
     * that key: a second charge or refund would follow.
     */
    default Optional<Duration> idempotencyKeyLifetime() {
        return Optional.empty();
    }

    /** How the connector writes amounts (its published currency table). */
    default CurrencyUnits currencyUnits() {
        return CurrencyUnits.ISO;
    }

    /**
     * Checks the connector's own settings once, at start; a setting the connector cannot work with stops the start
     * with an {@link IllegalStateException} that names the key.
     */
    default void checkSettings() {
    }
}
