/**
 * Adyen through adyen-java-api-library: gateway, HTTP transport, notification adapter, status mapping, settings and
 * accounts. Only this folder uses the Adyen SDK.
 */
package com.payorch.connectors.adyen;
