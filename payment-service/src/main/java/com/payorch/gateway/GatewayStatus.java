package com.payorch.gateway;

/** What a connector says of one attempt's charge, in the port's words (each connector maps its own to these). */
public enum GatewayStatus {
    /** Accepted, outcome not known yet (for a capture or a cancel: sent and accepted, its confirmation comes later). */
    PROCESSING,
    /** The money is held, not taken: a manual-capture payment's authorisation. */
    AUTHORIZED,
    /** The money was taken (a charge, or the capture of a hold). */
    SUCCEEDED,
    /** The connector refused the capture of a hold: the money is still held. */
    CAPTURE_FAILED,
    /** The hold was released, or the attempt cancelled before it was authorised: nothing is held or taken. */
    CANCELLED,
    /**
     * The connector waits for the customer (3-D Secure, a redirect): nothing is taken or held yet. The outcome names
     * where to send them ({@link GatewayOutcome#nextActionUrl()}); the connector's answer comes later by a
     * notification, or when the service asks ({@link PaymentGateway#complete}).
     */
    REQUIRES_ACTION,
    /** Definitely not charged (declined, refused, authentication required, ...). */
    FAILED
}
