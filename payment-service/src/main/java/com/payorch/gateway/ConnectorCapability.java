package com.payorch.gateway;

/** What a {@link Connector} can do beyond submitting a charge. */
public enum ConnectorCapability {
    /** {@link PaymentGateway#refund} and {@link PaymentGateway#findRefund} reach the connector. */
    REFUNDS,
    /** {@link PaymentGateway#find} asks the connector what became of an attempt (an empty answer means "no charge"). */
    LOOKUP,
    /** An attempt can be cancelled by the service's own reference when the connector's id is not known yet. */
    CANCEL_BY_REFERENCE,
    /** An authorisation can be captured later (manual capture). */
    CAPTURE
}
