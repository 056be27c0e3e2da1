package com.payorch.gateway;

/** What a connector says of one attempt's charge, in the port's words (each connector maps its own to these). */
public enum GatewayStatus {
    /** Accepted, outcome not known yet. */
    PROCESSING,
    /** The money was taken. */
    SUCCEEDED,
    /** Definitely not charged (declined, refused, authentication required, ...). */
    FAILED
}
