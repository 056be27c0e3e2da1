package com.payorch.statemachine;

/**
 * The status of a dispute (a chargeback the card holder's bank opened against a payment), as seen by the rest of the
 * application. OPEN, then WON or LOST; neither is terminal: a LOST dispute the bank reverses is WON, a WON one
 * charged back a second time is LOST.
 */
public enum DisputeStatus {
    OPEN,
    WON,
    LOST
}
