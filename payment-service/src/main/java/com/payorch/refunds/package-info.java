/**
 * Refunds: the single write path of refunds ({@link com.payorch.refunds.Refunds}, asked of the refund state
 * machine), the idempotent refund request flow, the reads other modules use
 * ({@link com.payorch.refunds.RefundQueries}) and the refund refusals. Their SQL is in {@code internal}, which no
 * other module may use. Knows nothing of HTTP.
 */
package com.payorch.refunds;
