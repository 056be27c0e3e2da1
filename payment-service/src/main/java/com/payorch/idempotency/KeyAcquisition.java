package com.payorch.idempotency;

/** The outcome of presenting a key: either this attempt now owns it, or the stored response is the answer. */
public sealed interface KeyAcquisition {

    record Claimed(KeyClaim claim) implements KeyAcquisition {
    }

    record Replay(StoredResponse response) implements KeyAcquisition {
    }
}
