package com.payorch.webhooks;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code payments.webhooks.*}: webhooks received from connectors.
 *
 * @param receiptRetention How long the receipt of a webhook is kept. A receipt is what makes a redelivery of the same
 *                         webhook id a duplicate, so it must outlive every gateway's redelivery window: Stripe
 *                         retries a webhook for up to 3 days, Adyen for up to about 30 days. A redelivery that
 *                         arrives after its receipt is gone is judged afresh against the payment's state.
 */
@ConfigurationProperties("payments.webhooks")
public record WebhookProperties(@DefaultValue("P30D") Duration receiptRetention) {
}
