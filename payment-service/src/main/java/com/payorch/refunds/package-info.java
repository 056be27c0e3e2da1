/**
 * Refunds: the single write path of refunds ({@link com.payorch.refunds.Refunds}, asked of the refund state
 * machine), the idempotent refund request flow and the refund refusals. Their SQL is in {@code internal}. Knows
 * nothing of HTTP.
 */
package com.payorch.refunds;
