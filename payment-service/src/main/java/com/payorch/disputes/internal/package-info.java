/**
 * The SQL of disputes ({@link com.payorch.disputes.internal.DisputeStore}), used only by the disputes module's own
 * services.
 */
package com.payorch.disputes.internal;
