package com.payorch.statemachine;

/**
 * What the connector reports closing a dispute with; {@link DisputeLifecycle} decides whether it is allowed. A
 * dispute is created OPEN by its first report, not by an event of this machine.
 */
public enum DisputeEvent {
    /** Decided for the merchant: the money comes back (also a LOST dispute's chargeback reversed). */
    WIN,
    /** Decided for the card holder: the money stays with them (also a WON dispute's second chargeback). */
    LOSE
}
