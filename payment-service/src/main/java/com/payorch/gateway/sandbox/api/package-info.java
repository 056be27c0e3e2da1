/**
 * {@code GET /v1/sandbox/charges}.
 */
package com.payorch.gateway.sandbox.api;
