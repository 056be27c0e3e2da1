package com.payorch.idempotency;

/** The last committed step of an idempotent request; a retry resumes from here. */
public enum RecoveryPoint {
    /** The key is claimed; nothing else has happened yet. */
    STARTED,
    /** The payment row exists (created, or moved back to PENDING by a retry); the gateway may not know it yet. */
    PAYMENT_CREATED,
    /** The refund row exists (PENDING, its amount reserved); the connector may not know it yet. */
    REFUND_CREATED,
    /** The response is stored; every later request with this key gets it back unchanged. */
    FINISHED
}
