/**
 * Payments: the single write path ({@link com.payorch.payments.PaymentStateChanges}), attempts and the one
 * place that applies a connector's outcome ({@link com.payorch.payments.GatewayOutcomes}), the idempotent request
 * flow, the booking guard and the domain's refusals. Knows nothing of HTTP.
 */
package com.payorch.payments;
