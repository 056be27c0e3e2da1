/**
 * The SQL of refunds ({@link com.payorch.refunds.internal.RefundStore}), used only by the refunds module's own
 * services.
 */
package com.payorch.refunds.internal;
