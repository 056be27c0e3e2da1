/**
 * {@code GET /v1/sandbox/charges}.
 */
package com.payorch.connectors.sandbox.api;
