/**
 * Disputes: chargebacks the card holder's bank opened against a payment, as its connector reports them. The reads
 * other modules use ({@link com.payorch.disputes.DisputeQueries}) and the one write path, applying a connector's
 * report ({@link com.payorch.disputes.DisputeReports}, asked of the dispute state machine). Their SQL is in
 * {@code internal}, which no other module may use. Knows nothing of HTTP nor of any connector.
 */
package com.payorch.disputes;
