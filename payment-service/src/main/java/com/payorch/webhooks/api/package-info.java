/**
 * The webhook endpoints (authenticated by signature, not by API key).
 */
package com.payorch.webhooks.api;
