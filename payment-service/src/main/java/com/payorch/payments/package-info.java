/**
 * Payments: the single write path ({@link com.payorch.payments.PaymentStateChanges}), attempts and the one
 * place that applies a connector's outcome ({@link com.payorch.payments.GatewayOutcomes}), the idempotent request
 * flow, the booking guard and the domain's refusals. Knows nothing of HTTP.
 * <p>
 * Other modules use its public classes: the services above, {@link com.payorch.payments.ConnectorSubmission},
 * the reads {@link com.payorch.payments.PaymentQueries} and {@link com.payorch.payments.AttemptReferences}, the row
 * format {@link com.payorch.payments.PaymentRows}, and the domain's types and refusals. Its SQL is in
 * {@code internal}, which no other module may use (the architecture test enforces it).
 */
package com.payorch.payments;
