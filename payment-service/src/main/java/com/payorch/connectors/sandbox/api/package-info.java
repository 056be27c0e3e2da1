/**
 * {@code GET /v1/sandbox/charges}; the sandbox's 3-D Secure page {@code /sandbox/authenticate/{chargeId}}.
 */
package com.payorch.connectors.sandbox.api;
