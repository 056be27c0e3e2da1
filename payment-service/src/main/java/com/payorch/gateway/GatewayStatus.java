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
    /** Definitely not charged (declined, refused, authentication required, ...). */
    FAILED
}
