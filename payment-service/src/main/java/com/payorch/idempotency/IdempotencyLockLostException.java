package com.payorch.idempotency;

/**
 * This attempt's claim on its key expired and another attempt took the key over: whatever this attempt was about
 * to commit is rolled back, and the newer owner's result stands.
 */
public class IdempotencyLockLostException extends RuntimeException {

    public IdempotencyLockLostException() {
        super("the idempotency key is now owned by another attempt", null, false, false);
    }
}
