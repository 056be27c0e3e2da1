/**
 * Stripe through stripe-java: gateway, HTTP transport, webhook adapter, status mapping, settings and accounts. Only
 * this folder uses the Stripe SDK.
 */
package com.payorch.connectors.stripe;
