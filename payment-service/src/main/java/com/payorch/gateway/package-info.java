/**
 * The gateway port: what a connector is asked ({@link com.payorch.gateway.ChargeRequest}) and what it
 * answers ({@link com.payorch.gateway.GatewayOutcome}). Knows no connector and no payment.
 */
package com.payorch.gateway;
