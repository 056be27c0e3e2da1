/**
 * The connectors the service uses: the router over every {@link com.payorch.gateway.Connector} bean (one per
 * folder below: {@code sandbox}, {@code stripe}, {@code adyen}, ...), the merchants' routes, and what the
 * connectors share (the HTTP client rules, the settings checks). Knows no connector by name except the default
 * route, {@code sandbox}.
 */
package com.payorch.connectors;
