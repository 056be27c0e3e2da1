/**
 * Merchant webhooks: every event of a merchant with a `webhook-url` is POSTed to it, signed the Standard Webhooks
 * way. An outbox consumer plans one delivery per event ({@code webhook_deliveries}, attempt 1); a periodic job
 * claims due attempts (lease, SKIP LOCKED), sends them and records each result, scheduling the next attempt with
 * exponential backoff until `payments.merchant-webhooks.give-up-after`. {@code merchantwebhooks.api}: the
 * deliveries list and redeliver endpoints.
 */
package com.payorch.merchantwebhooks;
